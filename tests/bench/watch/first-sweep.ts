// Before measuring, every target is covered once (the product does that on its first cycles,
// learning which stores each location seed's answer lists). At the shipped budget that first
// sweep takes a while, so it runs here unpaced, with the product's planner and poller, from
// the bench's own address. Each configuration then starts from a steady state: targets' last
// full answers are spread evenly over the full-sweep period, and alerting targets' last
// alerting answers over the alerting period, in the order the sweep asked them.
import { sql } from 'kysely';
import type { Db } from '#server/db/database.ts';
import { syncPollTargets } from '#server/db/repositories/watch-repository.ts';
import {
  declareEgressPool,
  planWatchCycle,
  pollRequest,
  type PollerDeps,
  type PollOutcome,
} from '#server/watch/index.ts';
import { DEFAULTS } from './compression.ts';

/** A target as the sweep left it, oldest answer first. */
export type SweptGroup = {
  countryCode: string;
  productId: string;
  storeId: string;
  isAlerting: boolean;
};

/** What the sweep did; `groups` are the targets it covered, in its order. */
export type SweepReport = {
  groups: SweptGroup[];
  requests: number;
  /** HTTP requests the planner now sizes a full sweep and an alerting sweep at. */
  fullSweepRequests: number;
  alertingSweepRequests: number;
  skipped: number;
  failed: number;
  ms: number;
};

/** Covers every target never covered before, `concurrency` requests at a time, without a rate limit. */
export async function runFirstSweep(
  db: Db,
  baseUrl: string,
  alertingGroupKeys: ReadonlySet<string>,
  concurrency: number,
): Promise<SweepReport> {
  const started = performance.now();
  const deps: PollerDeps = {
    db,
    now: Date.now,
    random: Math.random,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    pool: {
      addresses: [
        {
          label: 'bench first sweep',
          kind: 'direct',
          fetch: (url, init) => fetch(url, init),
          close: () => Promise.resolve(),
        },
      ],
      ratePerMinute: 1e9,
      burst: 1e9,
      baseCoolDownMs: 1000,
      maxCoolDownMs: 1000,
    },
    baseUrl,
    shape: 'pickup-message',
    intervalMs: DEFAULTS.pollIntervalSeconds * 1000,
    quietWindowMs: DEFAULTS.quietWindowMinutes * 60_000,
    partsPerRequest: DEFAULTS.partsPerRequest,
  };
  await declareEgressPool(db, deps.pool, Date.now());
  // Targets for the searches seeded since the last sweep, so the new ones can be listed.
  await syncPollTargets(db, new Date());
  const before = await db
    .selectFrom('poll_targets')
    .select(['country_code', 'product_id', 'store_id'])
    .where('last_covered_at', 'is', null)
    .execute();
  const { jobs } = await planWatchCycle(deps);
  const outcomes: PollOutcome[] = [];
  let next = 0;
  const runLane = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next];
      next += 1;
      outcomes.push(await pollRequest(deps, job));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, runLane));
  // Planned again with what the sweep learned (location seeds, the control part): the sizes
  // of the sweeps the workers will make.
  const steady = await planWatchCycle(deps);
  // The sweep's address is the bench's own: it must not count towards the workers' budget.
  await db.deleteFrom('egress_addresses').where('label', '=', 'bench first sweep').execute();
  return {
    groups: before.map((target) => ({
      countryCode: target.country_code,
      productId: target.product_id,
      storeId: target.store_id,
      isAlerting: alertingGroupKeys.has(
        `${target.country_code}:${target.product_id}:${target.store_id}`,
      ),
    })),
    fullSweepRequests: steady.sweepRequests,
    alertingSweepRequests: steady.alertingSweepRequests,
    requests: outcomes.reduce(
      (sum, outcome) => sum + (outcome.kind === 'skipped' ? 0 : outcome.requests),
      0,
    ),
    skipped: outcomes.filter((outcome) => outcome.kind === 'skipped').length,
    failed: outcomes.filter((outcome) => outcome.kind === 'failed').length,
    ms: performance.now() - started,
  };
}

/**
 * Spreads the targets' last full answer evenly over the full-sweep period and alerting
 * targets' last alerting answer over the alerting period (wall milliseconds), ending now, in
 * sweep order; failures and backoffs are cleared. Written straight to poll_targets: no
 * product code moves time like this.
 */
export async function spreadLastAnswers(
  db: Db,
  groups: readonly SweptGroup[],
  periods: { alertingMs: number; fullMs: number },
): Promise<void> {
  const now = Date.now();
  const spread = (index: number, count: number, periodMs: number): Date =>
    new Date(now - periodMs + ((index + 1) / count) * periodMs);
  const alerting = groups.filter((group) => group.isAlerting);
  const alertIndex = new Map(alerting.map((group, index) => [group, index]));
  const stamped = groups.map((group, index) => {
    const alertAt = alertIndex.get(group);
    return {
      group,
      coveredAt: spread(index, groups.length, periods.fullMs),
      alertCoveredAt:
        alertAt === undefined ? null : spread(alertAt, alerting.length, periods.alertingMs),
    };
  });
  for (let start = 0; start < stamped.length; start += 5000) {
    const chunk = stamped.slice(start, start + 5000);
    await sql`
      update poll_targets p
      set last_requested_at = greatest(v.covered_at, coalesce(v.alert_covered_at, v.covered_at)),
          last_covered_at = v.covered_at, last_alert_covered_at = v.alert_covered_at,
          next_due_at = v.covered_at, consecutive_failures = 0, last_failure_kind = null
      from unnest(
        ${chunk.map(({ group }) => group.countryCode)}::text[],
        ${chunk.map(({ group }) => group.productId)}::text[],
        ${chunk.map(({ group }) => group.storeId)}::text[],
        ${chunk.map(({ coveredAt }) => coveredAt.toISOString())}::timestamptz[],
        ${chunk.map(({ alertCoveredAt }) => alertCoveredAt?.toISOString() ?? null)}::timestamptz[]
      ) as v(country_code, product_id, store_id, covered_at, alert_covered_at)
      where p.country_code = v.country_code and p.product_id = v.product_id and p.store_id = v.store_id`.execute(
      db,
    );
  }
}
