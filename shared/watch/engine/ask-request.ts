import { findLeftOutParts, judgeByControlPart, type PickupAnswer } from '#shared/upstream/index.ts';
import { sliceParts } from '#shared/watch/request-planner.ts';
import { MAX_BISECTION_REQUESTS } from './engine-limits.ts';
import type { AskTally, WatchPort } from './watch-port.ts';

// Asking and judging, written once for every host: a planned request's parts go out in slices
// the request size allows, each with the country's control part; an answer whose control part
// reads unavailable everywhere is not believed; a part left out of every store is refused; and
// "Product(s) Invalid or not buyable" is traced to its parts by bisection within a budget.

/** One planned request as the engine asks it. */
export type AskedRequest = {
  /** Watched parts with their product type, refused parts already left out. */
  models: readonly { part_number: string; product_id: string }[];
  control: string | null;
  /** Most parts in one HTTP request, the control part included. */
  partsPerRequest: number;
};

type Run = { port: WatchPort; tally: AskTally };

/** Asks one planned request through a host's port (more than one HTTP request when needed). */
export async function askPlannedRequest(port: WatchPort, request: AskedRequest): Promise<AskTally> {
  const tally: AskTally = {
    requests: 0,
    bisections: 0,
    answers: 0,
    refused: [],
    listedStoreIds: new Set(),
  };
  const run: Run = { port, tally };
  const capacity = Math.max(1, request.partsPerRequest - (request.control === null ? 0 : 1));
  for (const slice of sliceParts(request.models, capacity)) {
    if ((await askParts(run, slice, request.control, false)) === 'stop') break;
  }
  return tally;
}

/** The parts of one HTTP request: the slice, and the control part unless it is in it. */
function withControl(parts: readonly string[], control: string | null): readonly string[] {
  return control === null || parts.includes(control) ? parts : [...parts, control];
}

async function askParts(
  run: Run,
  parts: string[],
  control: string | null,
  isControlChecked: boolean,
): Promise<'ok' | 'stop'> {
  const { port, tally } = run;
  const result = await port.send(withControl(parts, control), { isFirst: tally.requests === 0 });
  if ('skipped' in result) {
    if (tally.requests === 0) tally.skipped = result.skipped;
    return 'stop';
  }
  tally.requests += 1;
  if (!result.ok) {
    const { failure } = result;
    if (failure.kind === 'invalid_parts')
      return await bisect(run, parts, control, isControlChecked);
    tally.failure = failure;
    // A block is the address's cool-down to pace, not a reason to back the seed off.
    if (failure.kind !== 'blocked' && failure.kind !== 'html') await port.backOff?.(failure);
    return 'stop';
  }
  await believeAnswer(run, result.value, parts, control);
  return 'ok';
}

/** Files an answer unless its control part says it cannot be believed. */
async function believeAnswer(
  run: Run,
  answer: PickupAnswer,
  parts: string[],
  control: string | null,
): Promise<void> {
  const { port, tally } = run;
  if (judgeByControlPart(answer.stores, control) === 'implausible') {
    tally.failure = {
      kind: 'implausible',
      message: `The control part ${control ?? ''} was unavailable at every listed store`,
      coolDownSeconds: 0,
    };
    return;
  }
  const leftOut = findLeftOutParts(answer, parts);
  if (leftOut.length > 0 && leftOut.length < parts.length) {
    await markRefused(run, leftOut, 'left out of every store in the answer');
  }
  tally.answers += 1;
  for (const store of answer.stores) tally.listedStoreIds.add(store.storeNumber);
  await port.recordAnswer(answer, parts);
}

/**
 * Finds the part(s) behind "Product(s) Invalid or not buyable": the control alone first (a
 * bad control would spoil every half), then halves until single parts, within a budget.
 */
async function bisect(
  run: Run,
  parts: string[],
  control: string | null,
  isControlChecked: boolean,
): Promise<'ok' | 'stop'> {
  const { port, tally } = run;
  if (tally.bisections >= MAX_BISECTION_REQUESTS) return 'stop';
  if (control !== null && !parts.includes(control) && !isControlChecked) {
    tally.bisections += 1;
    const result = await port.send([control], { isFirst: false });
    if ('skipped' in result) return 'stop';
    tally.requests += 1;
    if (!result.ok && result.failure.kind === 'invalid_parts') {
      // The control itself was refused: mark it and ask the slice again without it.
      await markRefused(run, [control], 'Product(s) Invalid or not buyable');
      return await askParts(run, parts, null, false);
    }
    if (!result.ok) {
      tally.failure = result.failure;
      return 'stop';
    }
  }
  if (parts.length === 1) {
    await markRefused(run, parts, 'Product(s) Invalid or not buyable');
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
  run.tally.refused.push(...parts);
  await run.port.recordRefusedParts(parts, reason);
}
