import {
  findLocationSeed,
  listInvalidParts,
  listRetiredParts,
} from '#server/db/repositories/upstream-knowledge-repository.ts';
import {
  countUncoveredTargets,
  listRequestModels,
  markTargetsAlertCovered,
  recordTargetsFailure,
} from '#server/db/repositories/watch-repository.ts';
import { askPlannedRequest, INVALID_PART_HOLD_MS } from '#shared/watch/engine/index.ts';
import type { AnswerReport } from './apply-answer.ts';
import { createPgWatchPort } from './pg-watch-port.ts';
import type { PollerDeps, RequestJob } from './poll-job.ts';

/** What happened to one planned request. */
export type PollOutcome =
  | { kind: 'polled'; requests: number; report: AnswerReport }
  | { kind: 'failed'; requests: number; failureKind: string; coolDownSeconds: number }
  | {
      kind: 'skipped';
      reason: 'covered' | 'backing_off' | 'cooling_down' | 'no_budget' | 'no_models';
    };

/**
 * Runs one planned request: skips it when answers since the cycle began covered its targets,
 * waits for a token of any egress address, asks the country's endpoint shape for the parts
 * (in more than one request only when they exceed the limit), and applies what it may
 * believe. An answer whose control part is unavailable everywhere is unknown; a part Apple
 * refuses is found and left out, a part it retired is no longer asked; a failure writes no
 * status.
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
  // Parts Apple refused (for a while) or retired (until the catalog changes them) are not asked.
  const [invalidRows, retiredRows] = await Promise.all([
    listInvalidParts(deps.db, new Date(deps.now() - INVALID_PART_HOLD_MS)),
    listRetiredParts(deps.db),
  ]);
  const invalid = new Set(
    [...invalidRows, ...retiredRows]
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
  const report: AnswerReport = {
    storesSeen: 0,
    changes: 0,
    restocks: 0,
    alertsEnqueued: 0,
    storesLearned: 0,
  };
  const port = createPgWatchPort(deps, job, { models, isStillWanted, report });
  const tally = await askPlannedRequest(port, {
    models: watched,
    control,
    partsPerRequest: deps.partsPerRequest,
  });
  if (tally.requests === 0) return { kind: 'skipped', reason: tally.skipped ?? 'no_budget' };
  if (job.partNumbers !== null && tally.failure === undefined) {
    // Every preferred part was asked and answered: the alerting targets listed are covered.
    await markTargetsAlertCovered(deps.db, {
      country_code: job.countryCode,
      targets: job.covers.filter(([, storeId]) => tally.listedStoreIds.has(storeId)),
      covered_at: new Date(deps.now()),
    });
  }
  if (tally.failure !== undefined && report.storesSeen === 0) {
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
  return { kind: 'polled', requests: tally.requests, report };
}
