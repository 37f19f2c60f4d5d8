import type { Executor } from '#server/db/database.ts';
import {
  findWatchFreshness,
  type WatchFreshnessRow,
} from '#server/db/repositories/watch-workers-repository.ts';

/** Staleness that reads as late before any worker promised anything (no freshness row yet). */
export const DEFAULT_STALE_AFTER_MS = 10 * 60_000;
/** How long a read freshness row is reused: it changes once a cycle, reads happen per request. */
const CACHE_MS = 5_000;

const cache = new WeakMap<Executor, { row: WatchFreshnessRow | undefined; readAt: number }>();

/** The planner's last promise, read at most every few seconds per database handle. */
export async function readWatchFreshness(
  db: Executor,
  now: number = Date.now(),
): Promise<WatchFreshnessRow | undefined> {
  const cached = cache.get(db);
  if (cached !== undefined && now - cached.readAt >= 0 && now - cached.readAt < CACHE_MS) {
    return cached.row;
  }
  const row = await findWatchFreshness(db);
  cache.set(db, { row, readAt: now });
  return row;
}

/**
 * Coverage older than this is late: what the request budget promises for every group (two
 * intervals when it covers them all), so a stalled poller shows within two intervals; the
 * old fixed ten minutes before any promise exists.
 */
export function computeStaleAfterMs(freshness: WatchFreshnessRow | undefined): number {
  const bound = freshness?.all_fresh_within_ms;
  return bound !== undefined && Number.isFinite(bound) && bound > 0
    ? bound
    : DEFAULT_STALE_AFTER_MS;
}

/**
 * True when no cycle was planned for longer than two intervals (or the promised bound, when
 * the budget stretches cycles): the planner itself stalled, or every worker is gone.
 */
export function isPlannerSilent(freshness: WatchFreshnessRow | undefined, now: number): boolean {
  if (freshness === undefined) return false;
  const bound = Number.isFinite(freshness.all_fresh_within_ms) ? freshness.all_fresh_within_ms : 0;
  const allowedMs = Math.max(2 * freshness.interval_ms, bound) + 30_000;
  return now - freshness.planned_at.getTime() > allowedMs;
}
