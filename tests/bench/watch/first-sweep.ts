// Before measuring, every group is asked once (the product does that on its first cycle, to
// learn each store's own neighbour list). At the defaults that first sweep takes hours (one
// request per group at 30 a minute per worker), so it runs here unpaced, with the product's
// planner and poller. Each configuration then starts from a steady state: groups' last
// answers are spread evenly over their class's promised period, in the order the sweep asked
// them, as if the planner had been asking them at its pace for a while.
import { sql } from 'kysely';
import type { Db } from '#server/db/database.ts';
import {
  planWatchCycle,
  pollGroup,
  type PollerDeps,
  type PollOutcome,
} from '#server/watch/index.ts';
import { createTokenBucketLimiter } from '#shared/upstream/index.ts';
import { DEFAULTS } from './compression.ts';

/** A group as the sweep left it, oldest request first. */
export type SweptGroup = {
  countryCode: string;
  productId: string;
  storeId: string;
  isAlerting: boolean;
};

/** What the sweep did; `groups` are the ones it asked, in its order. */
export type SweepReport = {
  groups: SweptGroup[];
  requests: number;
  skipped: number;
  failed: number;
  ms: number;
};

/** Asks every group never asked before once, `concurrency` at a time, without a rate limit. */
export async function runFirstSweep(
  db: Db,
  baseUrl: string,
  alertingGroupKeys: ReadonlySet<string>,
  concurrency: number,
): Promise<SweepReport> {
  const started = performance.now();
  const deps: PollerDeps = {
    db,
    fetch: (url, init) => fetch(url, init),
    now: Date.now,
    random: Math.random,
    limiter: createTokenBucketLimiter({
      capacity: 1e9,
      refillPerSecond: 1e9,
      now: Date.now,
      sleep: () => Promise.resolve(),
    }),
    baseUrl,
    shape: 'fulfillment-messages',
    intervalMs: DEFAULTS.pollIntervalSeconds * 1000,
    quietWindowMs: DEFAULTS.quietWindowMinutes * 60_000,
  };
  const { plan, cycleStartedAt } = await planWatchCycle(deps);
  // Groups of a smaller crowd were asked before; only the new ones have their first cycle.
  const due = plan.due.filter((target) => target.lastRequestedAt === null);
  const outcomes: PollOutcome[] = [];
  let next = 0;
  const runLane = async (): Promise<void> => {
    while (next < due.length) {
      const target = due[next];
      next += 1;
      outcomes.push(await pollGroup(deps, target, cycleStartedAt));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, runLane));
  return {
    groups: due.map((target) => ({
      countryCode: target.countryCode,
      productId: target.productId,
      storeId: target.storeId,
      isAlerting: alertingGroupKeys.has(
        `${target.countryCode}:${target.productId}:${target.storeId}`,
      ),
    })),
    requests: outcomes.filter((outcome) => outcome.kind !== 'skipped').length,
    skipped: outcomes.filter((outcome) => outcome.kind === 'skipped').length,
    failed: outcomes.filter((outcome) => outcome.kind === 'failed').length,
    ms: performance.now() - started,
  };
}

/**
 * Spreads the groups' last request and coverage evenly over their class's period (alerting
 * and page-only, in wall milliseconds), ending now, in sweep order; failures and backoffs
 * are cleared. Written straight to poll_targets: no product code moves time like this.
 */
export async function spreadLastAnswers(
  db: Db,
  groups: readonly SweptGroup[],
  periods: { alertingMs: number; pageOnlyMs: number },
): Promise<void> {
  const now = Date.now();
  const stamp = (
    members: readonly SweptGroup[],
    periodMs: number,
  ): { group: SweptGroup; at: Date }[] =>
    members.map((group, index) => ({
      group,
      at: new Date(now - periodMs + ((index + 1) / members.length) * periodMs),
    }));
  const stamped = [
    ...stamp(
      groups.filter((group) => group.isAlerting),
      periods.alertingMs,
    ),
    ...stamp(
      groups.filter((group) => !group.isAlerting),
      periods.pageOnlyMs,
    ),
  ];
  for (let start = 0; start < stamped.length; start += 5000) {
    const chunk = stamped.slice(start, start + 5000);
    await sql`
      update poll_targets p
      set last_requested_at = v.at, last_covered_at = v.at, next_due_at = v.at,
          consecutive_failures = 0, last_failure_kind = null
      from unnest(
        ${chunk.map(({ group }) => group.countryCode)}::text[],
        ${chunk.map(({ group }) => group.productId)}::text[],
        ${chunk.map(({ group }) => group.storeId)}::text[],
        ${chunk.map(({ at }) => at.toISOString())}::timestamptz[]
      ) as v(country_code, product_id, store_id, at)
      where p.country_code = v.country_code and p.product_id = v.product_id and p.store_id = v.store_id`.execute(
      db,
    );
  }
}
