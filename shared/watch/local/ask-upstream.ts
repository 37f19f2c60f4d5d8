import {
  chooseEndpointShape,
  createEndpointMemory,
  fetchPickupAvailability,
  findLeftOutParts,
  judgeByControlPart,
  rememberAnswer,
  rememberBlock,
  type EndpointMemory,
  type EndpointShape,
  type FetchLike,
  type PickupAnswer,
  type TokenBucketLimiter,
  type UpstreamFailure,
  type UpstreamResult,
} from '#shared/upstream/index.ts';
import { sliceParts } from '#shared/watch/request-planner.ts';
import { invalidPartKey, type LocalEndpoint, type LocalWatchState } from './state.ts';

// One planned request of the local loop, as the server's poller runs it but without a
// database: the Mac is one egress address with one token bucket and one cool-down, each
// country remembers which endpoint shape answers, a control part tells a silent block from
// a sell-out, and a part Apple refuses is found by bisection and left out.

/** The bucket key of this Mac: one address, whichever Apple host a country's requests go to. */
export const LOCAL_ADDRESS = 'this-mac';
/** First cool-down after a block (public reports: 5 minutes after a 541). */
export const BASE_COOL_DOWN_MS = 5 * 60_000;
/** Longest cool-down: repeated blocks double it up to an hour. */
export const MAX_COOL_DOWN_MS = 60 * 60_000;
/** Apple counts an address's requests over about 10 minutes (public reports). */
export const REQUEST_WINDOW_MS = 10 * 60_000;
/** Most request times kept: more than the 30 a window allows. */
const MAX_RECENT_REQUESTS = 60;
/** Most extra requests one planned request may spend finding refused parts. */
const MAX_BISECTION_REQUESTS = 16;

/** What asking needs from the host. */
export type AskDeps = {
  fetch: FetchLike;
  now: () => number;
  rateLimiter: TokenBucketLimiter;
  baseUrl: string;
  /** The shape asked first (pickup-message unless set). */
  preferredShape: EndpointShape;
};

/** One planned request, ready to ask. */
export type AskPlan = {
  countryCode: string;
  where: { location: string } | { storeNumber: string };
  /** Part numbers with their product type, refused parts already left out. */
  models: readonly { part_number: string; product_id: string; display_name: string }[];
  control: string | null;
  /** Most parts in one HTTP request, the control part included. */
  partsPerRequest: number;
};

/** What a planned request came to. */
export type AskTally = {
  requests: number;
  answers: number;
  failure?: UpstreamFailure;
  /** Why no request was sent at all. */
  skipped?: 'cooling_down' | 'no_budget';
  /** Parts found refused during this request. */
  refused: string[];
};

/** Called with each believable answer and the watched parts it was asked for. */
export type OnAnswer = (answer: PickupAnswer, askedParts: readonly string[]) => void;

/** Runs one planned request (more than one HTTP request when its parts exceed the limit). */
export async function askPlannedRequest(
  deps: AskDeps,
  state: LocalWatchState,
  plan: AskPlan,
  onAnswer: OnAnswer,
): Promise<AskTally> {
  const tally: AskTally = { requests: 0, answers: 0, refused: [] };
  const run: Run = { deps, state, plan, onAnswer, tally, bisections: 0 };
  const capacity = Math.max(1, plan.partsPerRequest - (plan.control === null ? 0 : 1));
  for (const slice of sliceParts(plan.models, capacity)) {
    if ((await askParts(run, slice, plan.control, false)) === 'stop') break;
  }
  return tally;
}

type Run = {
  deps: AskDeps;
  state: LocalWatchState;
  plan: AskPlan;
  onAnswer: OnAnswer;
  tally: AskTally;
  bisections: number;
};

async function askParts(
  run: Run,
  parts: string[],
  control: string | null,
  isControlChecked: boolean,
): Promise<'ok' | 'stop'> {
  const { tally } = run;
  const result = await askOnce(run, parts, control);
  if ('skipped' in result) {
    if (tally.requests === 0) tally.skipped = result.skipped;
    return 'stop';
  }
  tally.requests += 1;
  if (!result.ok) {
    if (result.failure.kind === 'invalid_parts') {
      return await bisect(run, parts, control, isControlChecked);
    }
    tally.failure = result.failure;
    return 'stop';
  }
  const answer = result.value;
  if (judgeByControlPart(answer.stores, control) === 'implausible') {
    tally.failure = {
      kind: 'implausible',
      message: `The control part ${control ?? ''} was unavailable at every listed store`,
      coolDownSeconds: 0,
    };
    return 'ok';
  }
  const leftOut = findLeftOutParts(answer, parts);
  if (leftOut.length > 0 && leftOut.length < parts.length) {
    markRefused(run, leftOut, 'left out of every store in the answer');
  }
  tally.answers += 1;
  run.onAnswer(answer, parts);
  return 'ok';
}

/** The control alone first (a bad control spoils every half), then halves down to single parts. */
async function bisect(
  run: Run,
  parts: string[],
  control: string | null,
  isControlChecked: boolean,
): Promise<'ok' | 'stop'> {
  if (run.bisections >= MAX_BISECTION_REQUESTS) return 'stop';
  if (control !== null && !parts.includes(control) && !isControlChecked) {
    run.bisections += 1;
    const result = await askOnce(run, [control], null);
    if ('skipped' in result) return 'stop';
    run.tally.requests += 1;
    if (!result.ok && result.failure.kind === 'invalid_parts') {
      markRefused(run, [control], 'Product(s) Invalid or not buyable');
      return await askParts(run, parts, null, false);
    }
    if (!result.ok) {
      run.tally.failure = result.failure;
      return 'stop';
    }
  }
  if (parts.length === 1) {
    markRefused(run, parts, 'Product(s) Invalid or not buyable');
    return 'ok';
  }
  const middle = Math.ceil(parts.length / 2);
  for (const half of [parts.slice(0, middle), parts.slice(middle)]) {
    if (run.bisections >= MAX_BISECTION_REQUESTS) return 'stop';
    run.bisections += 1;
    if ((await askParts(run, half, control, true)) === 'stop') return 'stop';
  }
  return 'ok';
}

function markRefused(run: Run, parts: readonly string[], reason: string): void {
  const { countryCode, models } = run.plan;
  for (const part of parts) {
    const model = models.find((candidate) => candidate.part_number === part);
    run.state.invalid_parts[invalidPartKey(countryCode, part)] = {
      country_code: countryCode,
      part_number: part,
      product_id: model?.product_id ?? '',
      reason,
      found_at: run.deps.now(),
    };
    run.tally.refused.push(part);
  }
}

/** One HTTP request from this Mac: budget and cool-down first, shape memory kept up to date. */
async function askOnce(
  run: Run,
  parts: readonly string[],
  control: string | null,
): Promise<UpstreamResult<PickupAnswer> | { skipped: 'cooling_down' | 'no_budget' }> {
  const { deps, state, plan } = run;
  const now = deps.now();
  if ((state.address.cool_down_until ?? 0) > now) return { skipped: 'cooling_down' };
  if (!deps.rateLimiter.tryAcquire(LOCAL_ADDRESS)) return { skipped: 'no_budget' };
  state.recent_requests = [
    ...state.recent_requests.filter((at) => now - at < REQUEST_WINDOW_MS),
    now,
  ].slice(-MAX_RECENT_REQUESTS);
  const memory = loadEndpoint(state, plan.countryCode, deps.preferredShape, now);
  const { shape, isProbe } = chooseEndpointShape(memory, deps.preferredShape, now);
  const result = await fetchPickupAvailability(
    { fetch: deps.fetch, now: deps.now, baseUrl: deps.baseUrl, shape, fallbackShape: false },
    {
      countryCode: plan.countryCode,
      ...plan.where,
      partNumbers: control === null || parts.includes(control) ? parts : [...parts, control],
      // pickup-message answers `location=` with the nearby list by itself; the older shape needs the flag.
      searchNearby: shape === 'fulfillment-messages',
    },
  );
  const at = deps.now();
  if (result.ok) {
    saveEndpoint(state, plan.countryCode, rememberAnswer(memory, shape, at));
    state.address.consecutive_blocks = 0;
  } else if (result.failure.kind === 'blocked' || result.failure.kind === 'html') {
    saveEndpoint(
      state,
      plan.countryCode,
      rememberBlock(memory, shape, result.failure.httpStatus, at),
    );
    coolDown(run, result.failure, isProbe, at);
  }
  return result;
}

/** Doubles the cool-down per block in a row up to an hour; a probe of the other shape does not escalate. */
function coolDown(run: Run, failure: UpstreamFailure, isProbe: boolean, at: number): void {
  const { address } = run.state;
  if (!isProbe) address.consecutive_blocks += 1;
  const doublings = Math.min(20, Math.max(0, address.consecutive_blocks - 1));
  const doubled = Math.min(MAX_COOL_DOWN_MS, BASE_COOL_DOWN_MS * 2 ** doublings);
  const until = Math.max(
    address.cool_down_until ?? at,
    at + Math.max(doubled, failure.coolDownSeconds * 1000),
  );
  address.cool_down_until = until;
  address.last_block_at = at;
  run.deps.rateLimiter.pauseHost(LOCAL_ADDRESS, until - at);
}

function loadEndpoint(
  state: LocalWatchState,
  countryCode: string,
  preferred: EndpointShape,
  now: number,
): EndpointMemory {
  const saved = state.endpoints[countryCode];
  if (saved === undefined) return createEndpointMemory(preferred, now);
  return {
    shape: saved.shape,
    reason: saved.reason,
    switchedAt: saved.switched_at,
    suspectShape: saved.suspect_shape,
    suspectSince: saved.suspect_since,
    otherProbedAt: saved.other_probed_at,
  };
}

function saveEndpoint(state: LocalWatchState, countryCode: string, memory: EndpointMemory): void {
  const saved: LocalEndpoint = {
    shape: memory.shape,
    reason: memory.reason,
    switched_at: memory.switchedAt,
    suspect_shape: memory.suspectShape,
    suspect_since: memory.suspectSince,
    other_probed_at: memory.otherProbedAt,
  };
  state.endpoints[countryCode] = saved;
}
