// The server's side of the watch engine's port (shared/watch/engine): one planned request's
// HTTP work through the shared egress addresses, its answers applied in PostgreSQL, refused
// parts and failing seeds recorded where every worker reads them.
import {
  listEgressAddresses,
  recordEgressBlock,
  recordEgressFailure,
  recordEgressSuccess,
} from '#server/db/repositories/egress-repository.ts';
import {
  findLocationSeed,
  recordInvalidParts,
  recordRetirementEvidence,
  recordSeedAnswer,
  recordSeedFailure,
  type InvalidPartRow,
} from '#server/db/repositories/upstream-knowledge-repository.ts';
import { markCatalogChanged } from '#server/catalog/catalog-cache.ts';
import { notifyCatalogChanged } from '#server/catalog/catalog-notify.ts';
import { recordUpstreamRequest } from '#server/db/repositories/upstream-requests-repository.ts';
import {
  computeBackoff,
  fetchPickupAvailability,
  resolveCountryBase,
  type PickupAnswer,
  type RetirementEvidence,
  type UpstreamFailure,
} from '#shared/upstream/index.ts';
import {
  findCoveredProductIds,
  MAX_FAILURE_BACKOFF_MS,
  RETIRE_AFTER_ANSWERS,
  type WatchPort,
} from '#shared/watch/engine/index.ts';
import { applyPickupAnswer, type AnswerReport } from './apply-answer.ts';
import { acquireEgress, type EgressAddress } from './egress.ts';
import { loadEndpointMemory, noteAnswer, noteBlock } from './endpoint-shapes.ts';
import type { PollerDeps, RequestJob } from './poll-job.ts';

/** Another address answered this recently: a 541 is the asking address's block, not a dead shape. */
const OTHER_ADDRESS_ANSWER_MS = 10 * 60_000;
/** Longest wait for a token unless the host says otherwise. */
export const DEFAULT_MAX_TOKEN_WAIT_MS = 4 * 60_000;

/** Upstream host a country's requests go to (the client sends CN to its own host with Apple). */
export function resolveUpstreamHost(baseUrl: string, countryCode: string): string {
  return new URL(resolveCountryBase(baseUrl, countryCode)).host;
}

/** A catalog model as a request reads it. */
export type RequestModel = { product_id: string; part_number: string; display_name: string };

/**
 * The engine's port for one planned request on the server: tokens from the shared egress
 * buckets, answers applied in one PostgreSQL transaction each (apply-answer.ts), refused parts
 * and failing seeds recorded for every worker to see.
 */
export function createPgWatchPort(
  deps: PollerDeps,
  job: RequestJob,
  options: {
    models: readonly RequestModel[];
    /** False once answers since the cycle began covered the request's targets. */
    isStillWanted: () => Promise<boolean>;
    /** What the applied answers changed, added up. */
    report: AnswerReport;
  },
): WatchPort {
  return {
    send: async (partNumbers, { isFirst }) => {
      const acquired = await acquireEgress(deps, deps.pool, {
        maxWaitMs: deps.maxTokenWaitMs ?? DEFAULT_MAX_TOKEN_WAIT_MS,
        isStillWanted: isFirst ? options.isStillWanted : () => Promise.resolve(true),
      });
      if ('skipped' in acquired) {
        return { skipped: acquired.skipped === 'not_wanted' ? 'covered' : acquired.skipped };
      }
      return await askOnce(deps, job, acquired.address, partNumbers);
    },
    recordRefusedParts: async (parts, reason) =>
      await markInvalid(deps, job, options.models, parts, reason),
    recordRetirementEvidence: async (evidence) =>
      await countRetirementEvidence(deps, job, options.models, evidence),
    recordAnswer: async (answer, askedParts) =>
      await fileAnswer(deps, job, options, answer, askedParts),
    backOff: async (failure) => await backOffSeed(deps, job, failure),
  };
}

/** One HTTP request through one address, with the country's shape memory kept up to date. */
async function askOnce(
  deps: PollerDeps,
  job: RequestJob,
  address: EgressAddress,
  partNumbers: readonly string[],
): Promise<Awaited<ReturnType<typeof fetchPickupAvailability>>> {
  const memory = await loadEndpointMemory(deps.db, job.countryCode, deps.shape, deps.now());
  const { shape, isProbe } = memory.choose(deps.now());
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
  // Empty content is Apple answering about the parts asked: the address and the shape work.
  const isAnswered = result.ok || result.failure.kind === 'nothing_sellable';
  if (isAnswered) {
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
    failureKind: isAnswered ? null : result.failure.kind,
    coolDownUntil,
  });
  return result;
}

/** Applies a believed answer and learns the seed's store list from it. */
async function fileAnswer(
  deps: PollerDeps,
  job: RequestJob,
  options: { models: readonly RequestModel[]; report: AnswerReport },
  answer: PickupAnswer,
  askedParts: readonly string[],
): Promise<void> {
  const asked = new Set(askedParts);
  const productByPart = new Map(
    options.models
      .filter((model) => asked.has(model.part_number) || model.part_number === job.controlPart)
      .map((model) => [model.part_number, model.product_id]),
  );
  // Only a request for every part of a type covers its targets in full.
  const coveredProductIds =
    job.partNumbers !== null ? [] : findCoveredProductIds(options.models, job.productIds, asked);
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
  options.report.storesSeen += report.storesSeen;
  options.report.changes += report.changes;
  options.report.restocks += report.restocks;
  options.report.alertsEnqueued += report.alertsEnqueued;
  options.report.storesLearned += report.storesLearned;
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

async function markInvalid(
  deps: PollerDeps,
  job: RequestJob,
  models: readonly RequestModel[],
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

/**
 * Counts a believed answer towards retiring parts (parts without a catalog model are not
 * counted). A part retired changes what /v2/products says is sold in the country, so the
 * catalog caches of every process reload.
 */
async function countRetirementEvidence(
  deps: PollerDeps,
  job: RequestJob,
  models: readonly RequestModel[],
  evidence: RetirementEvidence,
): Promise<string[]> {
  const ineligible = evidence.ineligible.flatMap((part) => {
    const model = models.find((candidate) => candidate.part_number === part);
    return model === undefined
      ? []
      : [{ part_number: part, product_id: model.product_id, display_name: model.display_name }];
  });
  const retired = await recordRetirementEvidence(deps.db, {
    country_code: job.countryCode,
    ineligible,
    sold: evidence.sold,
    at: new Date(deps.now()),
    retireAfter: RETIRE_AFTER_ANSWERS,
  });
  if (retired.length > 0) {
    markCatalogChanged();
    await notifyCatalogChanged(deps.db);
  }
  return retired;
}

/** Backs a location seed off after a failure that is not a block. */
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
    { baseMs: deps.intervalMs, maxMs: deps.maxBackoffMs ?? MAX_FAILURE_BACKOFF_MS },
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
