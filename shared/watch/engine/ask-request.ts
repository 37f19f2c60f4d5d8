import {
  findLeftOutParts,
  judgeByControlPart,
  sortRetirementEvidence,
  type PickupAnswer,
  type UpstreamFailureKind,
} from '#shared/upstream/index.ts';
import { sliceParts } from '#shared/watch/request-planner.ts';
import { MAX_BISECTION_REQUESTS } from './engine-limits.ts';
import type { AskTally, WatchPort } from './watch-port.ts';

// Asking and judging, written once for every host: a planned request's parts go out in slices
// the request size allows, each with the country's control part; an answer whose control part
// reads unavailable everywhere is not believed. Bad parts are found as Apple's 2025-2026
// answers show them (../shared/reference/apple/README.md): a part Apple does not sell there is
// left out of every store when asked with good parts, and a request of nothing sellable is
// answered with empty content. A part left out is only suspect (Apple also drops parts past
// the 20th, and answers glitch): it is asked again in a smaller request, and refused only when
// left out where it was asked alone or with the control. Empty content, like the older
// "Product(s) Invalid or not buyable", is traced to its parts by bisection. All of it within
// a budget of extra requests.

/** One planned request as the engine asks it. */
export type AskedRequest = {
  /** Watched parts with their product type, refused and retired parts already left out. */
  models: readonly { part_number: string; product_id: string }[];
  control: string | null;
  /** Most parts in one HTTP request, the control part included. */
  partsPerRequest: number;
};

type Run = { port: WatchPort; tally: AskTally };
type Outcome = 'ok' | 'stop';

/** Failures that are Apple's verdict on the parts asked, not trouble with Apple. */
type RefusalKind = Extract<UpstreamFailureKind, 'invalid_parts' | 'nothing_sellable'>;

const REFUSAL_REASONS: Readonly<Record<RefusalKind, string>> = {
  invalid_parts: 'Product(s) Invalid or not buyable',
  nothing_sellable: 'answered with empty content (not sellable there)',
};
const LEFT_OUT_REASON = 'left out of every store where it was asked alone or with the control';

/** Asks one planned request through a host's port (more than one HTTP request when needed). */
export async function askPlannedRequest(port: WatchPort, request: AskedRequest): Promise<AskTally> {
  const tally: AskTally = {
    requests: 0,
    bisections: 0,
    answers: 0,
    refused: [],
    retired: [],
    listedStoreIds: new Set(),
  };
  const run: Run = { port, tally };
  const capacity = Math.max(1, request.partsPerRequest - (request.control === null ? 0 : 1));
  for (const slice of sliceParts(request.models, capacity)) {
    if ((await askParts(run, slice, request.control, false)) === 'stop') break;
  }
  return tally;
}

/**
 * The parts of one HTTP request: the control part first, so that a cut on Apple's side (parts
 * past the 20th come back missing) never takes it, then the slice.
 */
function withControl(parts: readonly string[], control: string | null): string[] {
  return control === null || parts.includes(control) ? [...parts] : [control, ...parts];
}

function isRefusal(kind: UpstreamFailureKind): kind is RefusalKind {
  return Object.hasOwn(REFUSAL_REASONS, kind);
}

async function askParts(
  run: Run,
  parts: string[],
  control: string | null,
  isControlChecked: boolean,
): Promise<Outcome> {
  const { port, tally } = run;
  const result = await port.send(withControl(parts, control), { isFirst: tally.requests === 0 });
  if ('skipped' in result) {
    if (tally.requests === 0) tally.skipped = result.skipped;
    return 'stop';
  }
  tally.requests += 1;
  if (!result.ok) {
    const { failure } = result;
    if (isRefusal(failure.kind)) {
      return await findRefusedParts(run, parts, control, isControlChecked, failure.kind);
    }
    tally.failure = failure;
    // A block is the address's cool-down to pace, not a reason to back the seed off.
    if (failure.kind !== 'blocked' && failure.kind !== 'html') await port.backOff?.(failure);
    return 'stop';
  }
  return await believeAnswer(run, result.value, parts, control);
}

/**
 * Files an answer unless its control part says it cannot be believed, counts it towards
 * retiring parts, and asks again for the parts it left out.
 */
async function believeAnswer(
  run: Run,
  answer: PickupAnswer,
  parts: string[],
  control: string | null,
): Promise<Outcome> {
  const { port, tally } = run;
  if (judgeByControlPart(answer.stores, control) === 'implausible') {
    tally.failure = {
      kind: 'implausible',
      message: `The control part ${control ?? ''} was unavailable at every listed store`,
      coolDownSeconds: 0,
    };
    return 'ok';
  }
  tally.answers += 1;
  for (const store of answer.stores) tally.listedStoreIds.add(store.storeNumber);
  await port.recordAnswer(answer, parts);
  const asked = withControl(parts, control);
  const evidence = sortRetirementEvidence(answer.stores, asked);
  if (evidence.ineligible.length > 0 || evidence.sold.length > 0) {
    tally.retired.push(...(await port.recordRetirementEvidence(evidence)));
  }
  const suspects = findLeftOutParts(answer, asked);
  return suspects.length === 0 ? 'ok' : await askSuspects(run, suspects, parts, control);
}

/**
 * Parts an answer listing stores left out everywhere. Where they were asked alone (or with
 * only the control, which came back) they are refused; otherwise they go out again in a
 * smaller request, the control with them unless it is one of them, and halves when nothing
 * asked came back at all. Out of budget, they simply stay unknown this time.
 */
async function askSuspects(
  run: Run,
  suspects: string[],
  parts: string[],
  control: string | null,
): Promise<Outcome> {
  const asked = withControl(parts, control);
  const isControlSuspect = control !== null && suspects.includes(control);
  if (asked.length === 1 || (parts.length === 1 && !isControlSuspect)) {
    await markRefused(run, suspects, LEFT_OUT_REASON);
    return 'ok';
  }
  const nextControl = isControlSuspect ? null : control;
  const middle = Math.ceil(suspects.length / 2);
  const groups =
    withControl(suspects, nextControl).length < asked.length
      ? [suspects]
      : [suspects.slice(0, middle), suspects.slice(middle)];
  for (const group of groups) {
    if (run.tally.bisections >= MAX_BISECTION_REQUESTS) return 'ok';
    run.tally.bisections += 1;
    const outcome = await askParts(run, group, nextControl, true);
    if (outcome === 'stop') return 'stop';
  }
  return 'ok';
}

/**
 * Finds the part(s) behind an answer refusing the parts asked (empty content, or "Product(s)
 * Invalid or not buyable"): the control alone first (a bad control would spoil every half),
 * then halves until single parts, within a budget. A part alone that is refused is held out.
 */
async function findRefusedParts(
  run: Run,
  parts: string[],
  control: string | null,
  isControlChecked: boolean,
  kind: RefusalKind,
): Promise<Outcome> {
  const { port, tally } = run;
  if (tally.bisections >= MAX_BISECTION_REQUESTS) return 'stop';
  if (control !== null && !parts.includes(control) && !isControlChecked) {
    tally.bisections += 1;
    const result = await port.send([control], { isFirst: false });
    if ('skipped' in result) return 'stop';
    tally.requests += 1;
    if (!result.ok && isRefusal(result.failure.kind)) {
      // The control itself was refused: mark it and ask the slice again without it.
      await markRefused(run, [control], REFUSAL_REASONS[result.failure.kind]);
      return await askParts(run, parts, null, false);
    }
    if (!result.ok) {
      tally.failure = result.failure;
      return 'stop';
    }
  }
  if (parts.length === 1) {
    await markRefused(run, parts, REFUSAL_REASONS[kind]);
    return 'ok';
  }
  const middle = Math.ceil(parts.length / 2);
  for (const half of [parts.slice(0, middle), parts.slice(middle)]) {
    if (tally.bisections >= MAX_BISECTION_REQUESTS) return 'stop';
    tally.bisections += 1;
    // The control is known good by now: each half carries it for the plausibility check.
    if ((await askParts(run, half, control, true)) === 'stop') return 'stop';
  }
  return 'ok';
}

async function markRefused(run: Run, parts: readonly string[], reason: string): Promise<void> {
  if (parts.length === 0) return;
  run.tally.refused.push(...parts);
  await run.port.recordRefusedParts(parts, reason);
}
