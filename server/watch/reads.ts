import type { SearchHistory, UpstreamHostStatus, WatchStatus } from '#shared/api/watch.ts';
import type { Executor } from '#server/db/database.ts';
import {
  countRestocksByDay,
  listEventsForStores,
  listNeighbours,
} from '#server/db/repositories/availability-repository.ts';
import {
  findStoresByIds,
  findStoreWithCountry,
  listProductModels,
} from '#server/db/repositories/catalog-repository.ts';
import {
  countRecentRequests,
  findFirstFailureAfter,
  findPollTarget,
  listUpstreamHosts,
} from '#server/db/repositories/watch-repository.ts';
import type { SearchRow } from '#server/db/schema.ts';

const DAY_MS = 24 * 60 * 60_000;
/** Window of the status page's error rate. */
const ERROR_RATE_WINDOW_MS = 15 * 60_000;
/** Most events a history answer lists; the daily counts still cover the whole period. */
const HISTORY_EVENT_LIMIT = 500;
/**
 * Coverage older than this reads as late. The engine's interval is 60 s by default; with
 * the upstream's rate limit a big cycle may take minutes, so ten is where "late" begins.
 */
const STALE_AFTER_MS = 10 * 60_000;
// Error rates are only telling with a few requests behind them.
const MIN_REQUESTS_FOR_ERROR_RATE = 3;
const DELAYED_ERROR_RATE = 0.5;
const DELAYED_CONSECUTIVE_FAILURES = 3;

/** Whether a search's checks are current, and since when they fail if not. */
export type CheckHealth = { is_stale: boolean; checks_failing_since: string | null };

/**
 * Health of the checks behind one search: stale when its group's last request failed, when
 * an upstream host is cooling down, or when nothing covered its store for ten minutes.
 * Null before the watcher first looked at the search: there is nothing to judge yet.
 */
export async function describeCheckHealth(
  db: Executor,
  search: SearchRow,
  now: number = Date.now(),
): Promise<CheckHealth | null> {
  const home = await findStoreWithCountry(db, search.store_id);
  if (home === undefined) return null;
  const target = await findPollTarget(db, {
    country_code: home.country_code,
    product_id: search.product_type,
    store_id: search.store_id,
  });
  if (
    target === undefined ||
    (target.last_requested_at === null && target.last_covered_at === null)
  ) {
    return null;
  }
  const hosts = await listUpstreamHosts(db);
  const isCoolingDown = hosts.some(
    (host) => host.cool_down_until !== null && host.cool_down_until.getTime() > now,
  );
  const isLate =
    target.last_covered_at === null || now - target.last_covered_at.getTime() > STALE_AFTER_MS;
  const isStale = target.consecutive_failures > 0 || isCoolingDown || isLate;
  if (!isStale) return { is_stale: false, checks_failing_since: null };
  const firstFailure = await findFirstFailureAfter(db, null, target.last_covered_at);
  const since = firstFailure ?? target.last_covered_at;
  return { is_stale: true, checks_failing_since: since?.toISOString() ?? null };
}

/** Restock history of a search's stores (its own, and nearby within its limit when on) and product's models. */
export async function computeSearchHistory(
  db: Executor,
  search: SearchRow,
  days: number,
  now: number = Date.now(),
): Promise<SearchHistory> {
  const home = await findStoreWithCountry(db, search.store_id);
  const health = await describeCheckHealth(db, search, now);
  const isStale = health?.is_stale ?? false;
  if (home === undefined)
    return {
      days,
      events: [],
      daily: buildEmptyDays(days, now),
      last_checked_at: null,
      is_stale: isStale,
    };
  const neighbours = search.include_nearby_store_results
    ? await listNeighbours(db, search.store_id, search.max_distance_miles)
    : [];
  const distances = new Map<string, number>([
    [search.store_id, 0],
    ...neighbours.map((n): [string, number] => [n.neighbour_store_id, n.distance_miles]),
  ]);
  const storeIds = [...distances.keys()];
  const models = await listProductModels(db, search.product_type, home.country_code);
  const partNumbers = models.map((model) => model.part_number);
  const since = new Date(startOfUtcDay(now) - (days - 1) * DAY_MS);
  const [events, counts, stores] = await Promise.all([
    listEventsForStores(db, { storeIds, partNumbers, since, limit: HISTORY_EVENT_LIMIT }),
    countRestocksByDay(db, { storeIds, partNumbers, since }),
    findStoresByIds(db, storeIds),
  ]);
  const storeNames = new Map(stores.map((store) => [store.store_id, store.store_name]));
  const modelNames = new Map(models.map((model) => [model.part_number, model.display_name]));
  const countByDay = new Map(counts.map((count) => [count.day, count.restocks]));
  const target = await findPollTarget(db, {
    country_code: home.country_code,
    product_id: search.product_type,
    store_id: search.store_id,
  });
  return {
    days,
    events: events.map((event) => ({
      id: String(event.id),
      store_id: event.store_id,
      store_name: storeNames.get(event.store_id) ?? event.store_id,
      distance_miles: distances.get(event.store_id) ?? null,
      part_number: event.part_number,
      display_name: modelNames.get(event.part_number) ?? event.part_number,
      from_status: event.from_status as SearchHistory['events'][number]['from_status'],
      to_status: event.to_status as SearchHistory['events'][number]['to_status'],
      pickup_quote: event.pickup_quote,
      observed_at: event.observed_at.toISOString(),
    })),
    daily: buildEmptyDays(days, now).map((day) => ({
      ...day,
      restocks: countByDay.get(day.date) ?? 0,
    })),
    last_checked_at: target?.last_covered_at?.toISOString() ?? null,
    is_stale: isStale,
  };
}

/** Per-host upstream health for the public status page. */
export async function computeWatchStatus(
  db: Executor,
  now: number = Date.now(),
): Promise<WatchStatus> {
  const [hosts, recent] = await Promise.all([
    listUpstreamHosts(db),
    countRecentRequests(db, new Date(now - ERROR_RATE_WINDOW_MS)),
  ]);
  const recentByHost = new Map(recent.map((row) => [row.host, row]));
  const statuses: UpstreamHostStatus[] = hosts.map((host) => {
    const counts = recentByHost.get(host.host);
    const total = counts?.total ?? 0;
    const isCoolingDown = host.cool_down_until !== null && host.cool_down_until.getTime() > now;
    return {
      host: host.host,
      last_success_at: host.last_success_at?.toISOString() ?? null,
      last_failure_at: host.last_failure_at?.toISOString() ?? null,
      last_failure_kind: host.last_failure_kind,
      requests_last_15_minutes: total,
      error_rate: total === 0 ? 0 : (counts?.failures ?? 0) / total,
      cool_down_until: isCoolingDown ? host.cool_down_until!.toISOString() : null,
      is_cooling_down: isCoolingDown,
    };
  });
  const isDelayed = hosts.some((host, index) => {
    const status = statuses[index];
    const isErroring =
      status.requests_last_15_minutes >= MIN_REQUESTS_FOR_ERROR_RATE &&
      status.error_rate >= DELAYED_ERROR_RATE;
    return (
      status.is_cooling_down ||
      isErroring ||
      host.consecutive_failures >= DELAYED_CONSECUTIVE_FAILURES
    );
  });
  return { is_delayed: isDelayed, checked_at: new Date(now).toISOString(), hosts: statuses };
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
