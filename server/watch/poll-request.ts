import type { Db } from '#server/db/database.ts';
import {
  listEgressAddresses,
  recordEgressBlock,
  recordEgressFailure,
  recordEgressSuccess,
} from '#server/db/repositories/egress-repository.ts';
import {
  findLocationSeed,
  listInvalidParts,
  recordInvalidParts,
  recordSeedAnswer,
  recordSeedFailure,
  type InvalidPartRow,
} from '#server/db/repositories/upstream-knowledge-repository.ts';
import {
  countUncoveredTargets,
  listRequestModels,
  markTargetsAlertCovered,
  recordTargetsFailure,
  recordUpstreamRequest,
} from '#server/db/repositories/watch-repository.ts';
import {
  computeBackoff,
  fetchPickupAvailability,
  findLeftOutParts,
  judgeByControlPart,
  resolveCountryBase,
  type EndpointShape,
  type PickupAnswer,
  type UpstreamFailure,
} from '#shared/upstream/index.ts';
import { sliceParts, type RequestTarget } from '#shared/watch/index.ts';
import { applyPickupAnswer, type AnswerReport } from './apply-answer.ts';
import { acquireEgress, type EgressAddress, type EgressPool } from './egress.ts';
import { loadEndpointMemory, noteAnswer, noteBlock } from './endpoint-shapes.ts';

/** One planned request as a job carries it. */
export type RequestJob = {
  countryCode: string;
  target: RequestTarget;
  productIds: string[];
  /** Stores whose targets the plan meant this request for. */
  storeIds: string[];
  /** An alerting sweep's request asks only these parts; null asks every part of the types. */
  partNumbers: string[] | null;
  /** The targets ([product, store]) the plan meant this request for. */
  covers: [string, string][];
  /** The country's control part this cycle, if any. */
  controlPart: string | null;
  /** The location a seed asks (its store's postal code or city). */
  location: string | null;
  cycleStartedAt: number;
};

/** Everything polling needs from its host process. */
export type PollerDeps = {
  db: Db;
  now: () => number;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  pool: EgressPool;
  baseUrl: string;
  /** The shape asked first (pickup-message by default). */
  shape: EndpointShape;
  intervalMs: number;
  quietWindowMs: number;
  /** Most parts in one request, the control part included. */
  partsPerRequest: number;
  /** Longest wait for a token before a request is left to the next cycle. */
  maxTokenWaitMs?: number;
  /** Longest backoff of a failing seed. */
  maxBackoffMs?: number;
};

/** What happened to one planned request. */
export type PollOutcome =
  | { kind: 'polled'; requests: number; report: AnswerReport }
  | { kind: 'failed'; requests: number; failureKind: string; coolDownSeconds: number }
  | {
      kind: 'skipped';
      reason: 'covered' | 'backing_off' | 'cooling_down' | 'no_budget' | 'no_models';
    };

/** How long a part Apple refused stays out of requests unless the catalog changes first. */
export const INVALID_PART_HOLD_MS = 24 * 60 * 60_000;
/** Most extra requests one planned request may spend finding invalid parts. */
const MAX_BISECTION_REQUESTS = 16;
const DEFAULT_MAX_BACKOFF_MS = 30 * 60_000;
/** Another address answered this recently: a 541 is the asking address's block, not a dead shape. */
const OTHER_ADDRESS_ANSWER_MS = 10 * 60_000;
const DEFAULT_MAX_TOKEN_WAIT_MS = 4 * 60_000;

/** Upstream host a country's requests go to (the client sends CN to its own host with Apple). */
export function resolveUpstreamHost(baseUrl: string, countryCode: string): string {
  return new URL(resolveCountryBase(baseUrl, countryCode)).host;
}

type Tally = {
  requests: number;
  bisections: number;
  report: AnswerReport;
  failure?: UpstreamFailure;
  /** Why the first request was never sent. */
  skipped?: 'covered' | 'cooling_down' | 'no_budget';
  /** Stores the believed answers listed. */
  listedStoreIds: Set<string>;
};
type Model = { product_id: string; part_number: string; display_name: string };

/**
 * Runs one planned request: skips it when answers since the cycle began covered its targets,
 * waits for a token of any egress address, asks the country's endpoint shape for the parts
 * (in more than one request only when they exceed the limit), and applies what it may
 * believe. An answer whose control part is unavailable everywhere is unknown; a part Apple
 * refuses is found by bisection and left out; a failure writes no status.
 */
export async function pollRequest(deps: PollerDeps, job: RequestJob): Promise<PollOutcome> {
  const since = new Date(job.cycleStartedAt);
  const isStillWanted = async (): Promise<boolean> =>
    (await countUncoveredTargets(deps.db, {
      country_code: job.countryCode,
      product_ids: job.productIds,
      store_ids: job.storeIds,
      since,
      isAlertOnly: job.partNumbers !== null,
    })) > 0;
  if (!(await isStillWanted())) return { kind: 'skipped', reason: 'covered' };
  if (job.target.kind === 'location') {
    const seed = await findLocationSeed(deps.db, {
      country_code: job.countryCode,
      seed_store_id: job.target.seedStoreId,
    });
    if (seed !== undefined && seed.next_due_at.getTime() > deps.now()) {
      return { kind: 'skipped', reason: 'backing_off' };
    }
  }
  const invalid = new Set(
    (await listInvalidParts(deps.db, new Date(deps.now() - INVALID_PART_HOLD_MS)))
      .filter((row) => row.country_code === job.countryCode)
      .map((row) => row.part_number),
  );
  const models = (
    await listRequestModels(deps.db, {
      country_code: job.countryCode,
      product_ids: job.productIds,
      extra_parts: job.controlPart === null ? [] : [job.controlPart],
    })
  ).filter((model) => !invalid.has(model.part_number));
  const asked = job.partNumbers === null ? undefined : new Set(job.partNumbers);
  const watched = models.filter(
    (model) =>
      job.productIds.includes(model.product_id) &&
      (asked === undefined || asked.has(model.part_number)),
  );
  if (watched.length === 0) return { kind: 'skipped', reason: 'no_models' };
  const control =
    job.controlPart !== null && !invalid.has(job.controlPart) ? job.controlPart : null;
  const tally: Tally = {
    requests: 0,
    bisections: 0,
    report: { storesSeen: 0, changes: 0, restocks: 0, alertsEnqueued: 0 },
    listedStoreIds: new Set(),
  };
  const capacity = Math.max(1, deps.partsPerRequest - (control === null ? 0 : 1));
  const slices = sliceParts(watched, capacity);
  let isFirst = true;
  for (const slice of slices) {
    const outcome = await askParts(deps, job, { parts: slice, control, models, tally }, () =>
      isFirst ? isStillWanted() : Promise.resolve(true),
    );
    isFirst = false;
    if (outcome === 'stop') break;
  }
  if (tally.requests === 0) return { kind: 'skipped', reason: tally.skipped ?? 'no_budget' };
  if (job.partNumbers !== null && tally.failure === undefined) {
    // Every preferred part was asked and answered: the alerting targets listed are covered.
    await markTargetsAlertCovered(deps.db, {
      country_code: job.countryCode,
      targets: job.covers.filter(([, storeId]) => tally.listedStoreIds.has(storeId)),
      covered_at: new Date(deps.now()),
    });
  }
  if (tally.failure !== undefined && tally.report.storesSeen === 0) {
    await recordTargetsFailure(deps.db, {
      country_code: job.countryCode,
      product_ids: job.productIds,
      store_ids: job.storeIds,
      at: new Date(deps.now()),
      kind: tally.failure.kind,
    });
    return {
      kind: 'failed',
      requests: tally.requests,
      failureKind: tally.failure.kind,
      coolDownSeconds: tally.failure.coolDownSeconds,
    };
  }
  return { kind: 'polled', requests: tally.requests, report: tally.report };
}

type AskInput = {
  parts: string[];
  control: string | null;
  models: readonly Model[];
  tally: Tally;
  /** The control answered on its own during this bisection: no need to ask it alone again. */
  isControlChecked?: boolean;
};

/** Asks for one slice of parts; on "invalid or not buyable" bisects it. */
async function askParts(
  deps: PollerDeps,
  job: RequestJob,
  input: AskInput,
  isStillWanted: () => Promise<boolean>,
): Promise<'ok' | 'stop'> {
  const { tally } = input;
  const acquired = await acquireEgress(deps, deps.pool, {
    maxWaitMs: deps.maxTokenWaitMs ?? DEFAULT_MAX_TOKEN_WAIT_MS,
    isStillWanted,
  });
  if ('skipped' in acquired) {
    if (tally.requests === 0) {
      tally.skipped = acquired.skipped === 'not_wanted' ? 'covered' : acquired.skipped;
    }
    return 'stop';
  }
  const result = await askOnce(deps, job, acquired.address, input);
  tally.requests += 1;
  if (result.ok) {
    await believeAnswer(deps, job, input, result.value);
    return 'ok';
  }
  const { failure } = result;
  if (failure.kind === 'invalid_parts') return await bisect(deps, job, input);
  tally.failure = failure;
  if (failure.kind === 'blocked' || failure.kind === 'html') return 'stop';
  await backOffSeed(deps, job, failure);
  return 'stop';
}

/** One HTTP request through one address, with the country's shape memory kept up to date. */
async function askOnce(
  deps: PollerDeps,
  job: RequestJob,
  address: EgressAddress,
  input: AskInput,
): Promise<Awaited<ReturnType<typeof fetchPickupAvailability>>> {
  const memory = await loadEndpointMemory(deps.db, job.countryCode, deps.shape, deps.now());
  const { shape, isProbe } = memory.choose(deps.now());
  const partNumbers =
    input.control === null || input.parts.includes(input.control)
      ? input.parts
      : [...input.parts, input.control];
  const where =
    job.target.kind === 'location'
      ? { location: job.location ?? job.target.seedStoreId }
      : { storeNumber: job.target.storeId };
  const startedAt = deps.now();
  const result = await fetchPickupAvailability(
    { fetch: address.fetch, now: deps.now, baseUrl: deps.baseUrl, shape, fallbackShape: false },
    {
      countryCode: job.countryCode,
      ...where,
      partNumbers,
      // pickup-message answers `location=` with the nearby list by itself; the older shape needs the flag.
      searchNearby: shape === 'fulfillment-messages',
    },
  );
  const finishedAt = deps.now();
  const at = new Date(finishedAt);
  let coolDownUntil: Date | null = null;
  if (result.ok) {
    await recordEgressSuccess(deps.db, address.label, at);
    await noteAnswer(deps.db, memory, shape, finishedAt);
  } else if (result.failure.kind === 'blocked' || result.failure.kind === 'html') {
    coolDownUntil = await recordEgressBlock(deps.db, address.label, {
      at,
      kind: result.failure.kind,
      baseMs: deps.pool.baseCoolDownMs,
      maxMs: deps.pool.maxCoolDownMs,
      hintedMs: result.failure.coolDownSeconds * 1000,
      isProbe,
    });
    const others = (await listEgressAddresses(deps.db)).filter(
      (row) =>
        row.label !== address.label &&
        deps.pool.addresses.some((candidate) => candidate.label === row.label),
    );
    const isOtherAddressAnswering = others.some(
      (row) => (row.last_success_at?.getTime() ?? 0) >= finishedAt - OTHER_ADDRESS_ANSWER_MS,
    );
    await noteBlock(
      deps.db,
      memory,
      shape,
      result.failure.httpStatus,
      finishedAt,
      isOtherAddressAnswering,
    );
  } else {
    await recordEgressFailure(deps.db, address.label, { at, kind: result.failure.kind });
  }
  await recordUpstreamRequest(deps.db, {
    host: resolveUpstreamHost(deps.baseUrl, job.countryCode),
    requestedAt: new Date(startedAt),
    durationMs: finishedAt - startedAt,
    failureKind: result.ok ? null : result.failure.kind,
    coolDownUntil,
  });
  return result;
}

/** Applies an answer unless its control part says it cannot be believed. */
async function believeAnswer(
  deps: PollerDeps,
  job: RequestJob,
  input: AskInput,
  answer: PickupAnswer,
): Promise<void> {
  const { tally } = input;
  if (judgeByControlPart(answer.stores, input.control) === 'implausible') {
    tally.failure = {
      kind: 'implausible',
      message: `The control part ${input.control} was unavailable at every listed store`,
      coolDownSeconds: 0,
    };
    return;
  }
  const leftOut = findLeftOutParts(answer, input.parts);
  if (leftOut.length > 0 && leftOut.length < input.parts.length) {
    await markInvalid(deps, job, input.models, leftOut, 'left out of every store in the answer');
  }
  const productByPart = new Map(
    input.models
      .filter(
        (model) => input.parts.includes(model.part_number) || model.part_number === input.control,
      )
      .map((model) => [model.part_number, model.product_id]),
  );
  const asked = new Set(input.parts);
  // Only a request for every part of a type covers its targets in full.
  const coveredProductIds =
    job.partNumbers !== null
      ? []
      : job.productIds.filter((productId) =>
          input.models
            .filter((model) => model.product_id === productId)
            .every((model) => asked.has(model.part_number)),
        );
  for (const store of answer.stores) tally.listedStoreIds.add(store.storeNumber);
  const report = await applyPickupAnswer(
    deps.db,
    {
      countryCode: job.countryCode,
      productByPart,
      coveredProductIds,
      originStoreId: job.target.kind === 'location' ? job.target.seedStoreId : null,
    },
    answer,
    { quietWindowMs: deps.quietWindowMs },
  );
  tally.report.storesSeen += report.storesSeen;
  tally.report.changes += report.changes;
  tally.report.restocks += report.restocks;
  tally.report.alertsEnqueued += report.alertsEnqueued;
  if (job.target.kind === 'location') {
    await recordSeedAnswer(deps.db, {
      country_code: job.countryCode,
      seed_store_id: job.target.seedStoreId,
      location: job.location ?? job.target.seedStoreId,
      store_ids: answer.stores.map((store) => store.storeNumber),
      at: new Date(answer.observedAt),
    });
  }
}

/**
 * Finds the part(s) behind "Product(s) Invalid or not buyable": the control alone first (a
 * bad control would spoil every half), then halves until single parts, within a budget.
 */
async function bisect(deps: PollerDeps, job: RequestJob, input: AskInput): Promise<'ok' | 'stop'> {
  const { tally } = input;
  if (tally.bisections >= MAX_BISECTION_REQUESTS) return 'stop';
  if (
    input.control !== null &&
    !input.parts.includes(input.control) &&
    input.isControlChecked !== true
  ) {
    tally.bisections += 1;
    const acquired = await acquireEgress(deps, deps.pool, {
      maxWaitMs: deps.maxTokenWaitMs ?? DEFAULT_MAX_TOKEN_WAIT_MS,
      isStillWanted: () => Promise.resolve(true),
    });
    if ('skipped' in acquired) return 'stop';
    const controlOnly = { ...input, parts: [input.control], control: null };
    const result = await askOnce(deps, job, acquired.address, controlOnly);
    tally.requests += 1;
    if (!result.ok && result.failure.kind === 'invalid_parts') {
      // The control itself was refused: mark it and ask the slice again without it.
      await markInvalid(
        deps,
        job,
        input.models,
        [input.control],
        'Product(s) Invalid or not buyable',
      );
      return await askParts(deps, job, { ...input, control: null }, () => Promise.resolve(true));
    }
    if (!result.ok) {
      tally.failure = result.failure;
      return 'stop';
    }
  }
  if (input.parts.length === 1) {
    await markInvalid(deps, job, input.models, input.parts, 'Product(s) Invalid or not buyable');
    return 'ok';
  }
  const middle = Math.ceil(input.parts.length / 2);
  for (const half of [input.parts.slice(0, middle), input.parts.slice(middle)]) {
    if (tally.bisections >= MAX_BISECTION_REQUESTS) return 'stop';
    tally.bisections += 1;
    // The control is known good by now: each half carries it for the plausibility check.
    const outcome = await askParts(
      deps,
      job,
      { ...input, parts: half, isControlChecked: true },
      () => Promise.resolve(true),
    );
    if (outcome === 'stop') return 'stop';
  }
  return 'ok';
}

async function markInvalid(
  deps: PollerDeps,
  job: RequestJob,
  models: readonly Model[],
  parts: readonly string[],
  reason: string,
): Promise<void> {
  const rows: InvalidPartRow[] = parts.flatMap((part) => {
    const model = models.find((candidate) => candidate.part_number === part);
    return model === undefined
      ? []
      : [
          {
            country_code: job.countryCode,
            part_number: part,
            product_id: model.product_id,
            display_name: model.display_name,
            reason,
            found_at: new Date(deps.now()),
          },
        ];
  });
  await recordInvalidParts(deps.db, rows);
}

async function backOffSeed(
  deps: PollerDeps,
  job: RequestJob,
  failure: UpstreamFailure,
): Promise<void> {
  if (job.target.kind !== 'location') return;
  const key = { country_code: job.countryCode, seed_store_id: job.target.seedStoreId };
  const seed = await findLocationSeed(deps.db, key);
  const backoffMs = computeBackoff(
    seed?.consecutive_failures ?? 0,
    { baseMs: deps.intervalMs, maxMs: deps.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS },
    deps.random,
  );
  await recordSeedFailure(deps.db, {
    ...key,
    location: job.location ?? job.target.seedStoreId,
    at: new Date(deps.now()),
    kind: failure.kind,
    next_due_at: new Date(deps.now() + backoffMs),
  });
}
