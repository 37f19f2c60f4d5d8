import type { Db } from '#server/db/database.ts';
import {
  findLocationSeed,
  listInvalidParts,
} from '#server/db/repositories/upstream-knowledge-repository.ts';
import {
  countUncoveredTargets,
  listRequestModels,
  markTargetsAlertCovered,
  recordTargetsFailure,
} from '#server/db/repositories/watch-repository.ts';
import type { EndpointShape } from '#shared/upstream/index.ts';
import { sliceParts, type RequestTarget } from '#shared/watch/index.ts';
import type { AnswerReport } from './apply-answer.ts';
import { askParts, type Tally } from './ask-parts.ts';
import type { EgressPool } from './egress.ts';

export { resolveUpstreamHost } from './ask-parts.ts';

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
  /** Aborted when the worker stops: requests still waiting for a token are dropped. */
  signal?: AbortSignal;
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
