// What the benchmark samples while the workers run: each search's staleness (how old the last
// answer covering its target is: any answer for every search, and for an alerting search also
// an alerting sweep's answer that asked its preferred models), and the cycles the planner
// stamps in watch_freshness.
import type { Db } from '#server/db/database.ts';
import type { WatchFreshnessRow } from '#server/db/repositories/watch-workers-repository.ts';
import { findWatchFreshness } from '#server/db/repositories/watch-workers-repository.ts';
import { findWeightedPercentiles } from './stats.ts';

/** Searches per group key (`country:product:store`), and how many of them alert. */
export type GroupWeights = Map<string, { searches: number; alerting: number }>;

/** Staleness histograms (wall ms, in 10 ms steps) weighted by searches. */
export type StalenessSamples = {
  all: Map<number, number>;
  alerting: Map<number, number>;
  samples: number;
};

/** p50, p95 and max of a staleness histogram, in wall ms. */
export type StalenessFigures = { p50: number; p95: number; max: number };

/** A loop that runs `tick` every `everyMs` until stopped; a failed tick is reported, not fatal. */
function startLoop(
  everyMs: number,
  tick: () => Promise<void>,
  onError: (error: unknown) => void,
): () => Promise<void> {
  let isRunning = true;
  const loop = (async () => {
    while (isRunning) {
      const started = Date.now();
      try {
        await tick();
      } catch (error) {
        onError(error);
      }
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(10, everyMs - (Date.now() - started))),
      );
    }
  })();
  return async () => {
    isRunning = false;
    await loop;
  };
}

/** Samples every target's coverage age every `everyMs`, each counted once per search. */
export function startStalenessSampler(
  db: Db,
  weights: GroupWeights,
  everyMs: number,
  onError: (error: unknown) => void,
): { stop: () => Promise<StalenessSamples> } {
  const samples: StalenessSamples = { all: new Map(), alerting: new Map(), samples: 0 };
  const add = (histogram: Map<number, number>, value: number, weight: number): void => {
    if (weight > 0) histogram.set(value, (histogram.get(value) ?? 0) + weight);
  };
  const stop = startLoop(
    everyMs,
    async () => {
      const rows = await db
        .selectFrom('poll_targets')
        .select([
          'country_code',
          'product_id',
          'store_id',
          'last_covered_at',
          'last_alert_covered_at',
        ])
        .execute();
      const now = Date.now();
      for (const row of rows) {
        const weight = weights.get(`${row.country_code}:${row.product_id}:${row.store_id}`);
        if (weight === undefined) continue;
        // Never covered counts as infinitely stale: it shows as "never" rather than hiding.
        const ageOf = (at: number | undefined): number =>
          at === undefined
            ? Number.POSITIVE_INFINITY
            : Math.max(0, Math.round((now - at) / 10) * 10);
        const coveredAt = row.last_covered_at?.getTime();
        const alertCoveredAt = Math.max(
          coveredAt ?? Number.NEGATIVE_INFINITY,
          row.last_alert_covered_at?.getTime() ?? Number.NEGATIVE_INFINITY,
        );
        add(samples.all, ageOf(coveredAt), weight.searches);
        add(
          samples.alerting,
          ageOf(Number.isFinite(alertCoveredAt) ? alertCoveredAt : undefined),
          weight.alerting,
        );
      }
      samples.samples += 1;
    },
    onError,
  );
  return {
    stop: async () => {
      await stop();
      return samples;
    },
  };
}

/** Percentiles of a histogram; NaN when it is empty. */
export function summariseStaleness(histogram: Map<number, number>): StalenessFigures {
  const weighted = [...histogram].map(([value, weight]) => ({ value, weight }));
  const [p50, p95, max] = findWeightedPercentiles(weighted, [50, 95, 100]);
  return { p50, p95, max };
}

/** Cycles the planner started (by their watch_freshness stamp) and its last promise. */
export type CycleRecord = { plannedAt: number[]; last: WatchFreshnessRow | undefined };

/** Watches watch_freshness; every planned cycle rewrites its one row. */
export function startCycleWatcher(
  db: Db,
  onError: (error: unknown) => void,
): { stop: () => Promise<CycleRecord> } {
  const seen = new Set<number>();
  const record: CycleRecord = { plannedAt: [], last: undefined };
  const stop = startLoop(
    200,
    async () => {
      const row = await findWatchFreshness(db);
      if (row === undefined) return;
      record.last = row;
      const at = row.planned_at.getTime();
      if (!seen.has(at)) {
        seen.add(at);
        record.plannedAt.push(at);
      }
    },
    onError,
  );
  return {
    stop: async () => {
      await stop();
      return record;
    },
  };
}
