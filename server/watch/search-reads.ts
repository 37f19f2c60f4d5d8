import type { SearchHistory } from '#shared/api/watch.ts';
import type { Executor } from '#server/db/database.ts';
import {
  findSearchHistorySources,
  type CheckStateColumns,
} from '#server/db/repositories/search-sources-repository.ts';
import {
  computeStaleAfterMs,
  DEFAULT_STALE_AFTER_MS,
  readWatchFreshness,
} from './freshness-status.ts';

const DAY_MS = 24 * 60 * 60_000;
/** Most events a history answer lists; the daily counts still cover the whole period. */
const HISTORY_EVENT_LIMIT = 500;

/** Whether a search's checks are current, and since when they fail if not. */
export type CheckHealth = { is_stale: boolean; checks_failing_since: string | null };

/** Coverage before this instant makes a search's checks late at `now`. */
export function describeLateBefore(now: number, staleAfterMs = DEFAULT_STALE_AFTER_MS): Date {
  return new Date(now - staleAfterMs);
}

/**
 * Health of the checks behind one search: stale when its group's last request failed, when
 * an upstream host is cooling down, or when nothing covered its store for longer than the
 * request budget promises (`staleAfterMs`, see computeStaleAfterMs).
 * Null before the watcher first looked at the search (or without its store in the catalog):
 * there is nothing to judge yet.
 */
export function describeCheckHealth(
  state: CheckStateColumns & { home_country_code: string | null },
  now: number = Date.now(),
  staleAfterMs: number = DEFAULT_STALE_AFTER_MS,
): CheckHealth | null {
  if (
    state.home_country_code === null ||
    state.target_consecutive_failures === null ||
    (state.target_last_requested_at === null && state.target_last_covered_at === null)
  ) {
    return null;
  }
  const lastCoveredAt = state.target_last_covered_at;
  const isLate = lastCoveredAt === null || now - lastCoveredAt.getTime() > staleAfterMs;
  const isStale = state.target_consecutive_failures > 0 || state.is_cooling_down || isLate;
  if (!isStale) return { is_stale: false, checks_failing_since: null };
  const since = state.first_failure_at ?? lastCoveredAt;
  return { is_stale: true, checks_failing_since: since?.toISOString() ?? null };
}

/**
 * Restock history of one of the user's searches, read in one statement: its stores (its own,
 * and nearby within its limit when on) and its product's models. Undefined when the search is
 * not the user's.
 */
export async function readSearchHistory(
  db: Executor,
  query: { userId: string; searchId: string; days: number; now?: number },
): Promise<SearchHistory | undefined> {
  const { days } = query;
  const now = query.now ?? Date.now();
  const staleAfterMs = computeStaleAfterMs(await readWatchFreshness(db, now));
  const sources = await findSearchHistorySources(db, {
    userId: query.userId,
    searchId: query.searchId,
    now: new Date(now),
    lateBefore: describeLateBefore(now, staleAfterMs),
    since: new Date(startOfUtcDay(now) - (days - 1) * DAY_MS),
    eventLimit: HISTORY_EVENT_LIMIT,
  });
  if (sources === undefined) {
    return undefined;
  }
  const isStale = describeCheckHealth(sources, now, staleAfterMs)?.is_stale ?? false;
  if (sources.home_country_code === null)
    return {
      days,
      events: [],
      daily: buildEmptyDays(days, now),
      last_checked_at: null,
      is_stale: isStale,
    };
  const stores = new Map(sources.covered_stores.map((store) => [store.store_id, store]));
  const modelNames = new Map(
    sources.models.map((model) => [model.part_number, model.display_name]),
  );
  const countByDay = new Map(sources.daily_restocks.map((count) => [count.day, count.restocks]));
  return {
    days,
    events: sources.events.map((event) => ({
      id: event.id,
      store_id: event.store_id,
      store_name: stores.get(event.store_id)?.store_name ?? event.store_id,
      distance_miles: stores.get(event.store_id)?.distance_miles ?? null,
      part_number: event.part_number,
      display_name: modelNames.get(event.part_number) ?? event.part_number,
      from_status: event.from_status as SearchHistory['events'][number]['from_status'],
      to_status: event.to_status as SearchHistory['events'][number]['to_status'],
      pickup_quote: event.pickup_quote,
      observed_at: new Date(event.observed_at_ms).toISOString(),
    })),
    daily: buildEmptyDays(days, now).map((day) => ({
      ...day,
      restocks: countByDay.get(day.date) ?? 0,
    })),
    last_checked_at: sources.target_last_covered_at?.toISOString() ?? null,
    is_stale: isStale,
  };
}

function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

function buildEmptyDays(days: number, now: number): { date: string; restocks: number }[] {
  const first = startOfUtcDay(now) - (days - 1) * DAY_MS;
  return Array.from({ length: days }, (_, index) => ({
    date: new Date(first + index * DAY_MS).toISOString().slice(0, 10),
    restocks: 0,
  }));
}
