// One planned request's HTTP work: asking through an egress address, judging and applying
// answers, finding refused parts by bisection, and backing a failing seed off.
import {
  listEgressAddresses,
  recordEgressBlock,
  recordEgressFailure,
  recordEgressSuccess,
} from '#server/db/repositories/egress-repository.ts';
import {
  findLocationSeed,
  recordInvalidParts,
  recordSeedAnswer,
  recordSeedFailure,
  type InvalidPartRow,
} from '#server/db/repositories/upstream-knowledge-repository.ts';
import { recordUpstreamRequest } from '#server/db/repositories/watch-repository.ts';
import {
  computeBackoff,
  fetchPickupAvailability,
  findLeftOutParts,
  judgeByControlPart,
  resolveCountryBase,
  type PickupAnswer,
  type UpstreamFailure,
} from '#shared/upstream/index.ts';
import { applyPickupAnswer, type AnswerReport } from './apply-answer.ts';
import { acquireEgress, type EgressAddress } from './egress.ts';
import { loadEndpointMemory, noteAnswer, noteBlock } from './endpoint-shapes.ts';
import type { PollerDeps, RequestJob } from './poll-request.ts';

const MAX_BISECTION_REQUESTS = 16;
const DEFAULT_MAX_BACKOFF_MS = 30 * 60_000;
/** Another address answered this recently: a 541 is the asking address's block, not a dead shape. */
const OTHER_ADDRESS_ANSWER_MS = 10 * 60_000;
/** Longest wait for a token unless the host says otherwise. */
export const DEFAULT_MAX_TOKEN_WAIT_MS = 4 * 60_000;

/** Upstream host a country's requests go to (the client sends CN to its own host with Apple). */
export function resolveUpstreamHost(baseUrl: string, countryCode: string): string {
  return new URL(resolveCountryBase(baseUrl, countryCode)).host;
}

/** What one planned request did so far. */
export type Tally = {
  requests: number;
  bisections: number;
  report: AnswerReport;
  failure?: UpstreamFailure;
  /** Why the first request was never sent. */
  skipped?: 'covered' | 'cooling_down' | 'no_budget';
  /** Stores the believed answers listed. */
  listedStoreIds: Set<string>;
};
/** A catalog model as a request reads it. */
export type Model = { product_id: string; part_number: string; display_name: string };

/** One slice of parts to ask, and the request's running tally. */
export type AskInput = {
  parts: string[];
  control: string | null;
  models: readonly Model[];
  tally: Tally;
  /** The control answered on its own during this bisection: no need to ask it alone again. */
  isControlChecked?: boolean;
};

/** Asks for one slice of parts; on "invalid or not buyable" bisects it. */
export async function askParts(
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

/** Backs a location seed off after a failure that is not a block. */
export async function backOffSeed(
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
