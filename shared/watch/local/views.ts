import type { InventoryStore, SearchInventory } from '#shared/api/inventory.ts';
import type { SearchHistory } from '#shared/api/watch.ts';
import type { LocalSearch } from '#shared/desktop/local-search.ts';
import { formatTargetKey } from '#shared/watch/request-planner.ts';
import { isWatchKitType } from '#shared/catalog/watch-kits.ts';
import type { LocalWatchCatalog } from './local-catalog.ts';
import { listNearbyStores } from './observe.ts';
import { snapshotKey, type LocalWatchState } from './state.ts';

const DAY_MS = 24 * 60 * 60_000;

/** What the views need besides the memory: the catalog, the clock and the staleness rule. */
export type ViewContext = {
  state: LocalWatchState;
  catalog: LocalWatchCatalog;
  now: number;
  defaultMaxDistanceMiles: number | null;
  /** Coverage older than this reads as late (a few check intervals). */
  staleAfterMs: number;
  /** True while this Mac is cooling down after Apple refused it. */
  isCoolingDown: boolean;
};

/** The check health of a search's group: when it was last covered and whether that is stale. */
function describeHealth(search: LocalSearch, context: ViewContext) {
  const home = context.catalog.findStore(search.store_id);
  const target =
    home === undefined
      ? undefined
      : context.state.targets[
          formatTargetKey({
            countryCode: home.country_code,
            productId: search.product_type,
            storeId: search.store_id,
          })
        ];
  const coveredAt = target?.last_covered_at ?? null;
  const isFailing =
    target !== undefined && (target.consecutive_failures > 0 || context.isCoolingDown);
  const isLate = coveredAt !== null && context.now - coveredAt > context.staleAfterMs;
  return {
    last_checked_at: coveredAt === null ? null : new Date(coveredAt).toISOString(),
    is_stale: isFailing || isLate,
    checks_failing_since:
      isFailing && target?.last_failure_at != null
        ? new Date(context.state.failing_since ?? target.last_failure_at).toISOString()
        : null,
  };
}

/**
 * The search's inventory, as the API computes it: its own store once checked (even with
 * nothing available), then nearby stores with something available, nearest first.
 */
export function buildInventory(search: LocalSearch, context: ViewContext): SearchInventory {
  const home = context.catalog.findStore(search.store_id);
  // A type not asked (Apple Watch kits) stays unknown, whatever an older state recorded.
  if (home === undefined || isWatchKitType(search.product_type)) {
    return { stores: [], last_checked_at: null };
  }
  const models = context.catalog.listModels(search.product_type, home.country_code);
  const preferred = new Set(search.preferred_parts);
  const shown = models.filter(
    (model) => !search.show_results_only_for_preferred_models || preferred.has(model.part_number),
  );
  const availableAt = (storeId: string) =>
    shown
      .filter(
        (model) =>
          context.state.snapshots[snapshotKey(storeId, model.part_number)]?.status === 'available',
      )
      .map((model) => ({ ...model, is_preferred: preferred.has(model.part_number) }));
  const stores: InventoryStore[] = [];
  const isHomeChecked = models.some(
    (model) => context.state.snapshots[snapshotKey(home.store_id, model.part_number)] !== undefined,
  );
  if (isHomeChecked) {
    stores.push({
      store_id: home.store_id,
      store_name: home.store_name,
      store_city: home.city,
      store_state: home.state_code,
      distance_miles: null,
      available_models: availableAt(home.store_id),
    });
  }
  for (const neighbour of listNearbyStores(
    context.state,
    search,
    context.defaultMaxDistanceMiles,
    context.catalog.findStore(search.store_id)?.country_code,
  )) {
    const available = availableAt(neighbour.store_id);
    if (available.length === 0) continue;
    const known = context.catalog.findStore(neighbour.store_id);
    stores.push({
      store_id: neighbour.store_id,
      store_name: known?.store_name ?? neighbour.store_name,
      store_city: known?.city ?? neighbour.city ?? '',
      store_state: known?.state_code ?? neighbour.state,
      distance_miles: neighbour.distance_miles,
      available_models: available,
    });
  }
  return { stores, ...describeHealth(search, context) };
}

/** How many of the search's stores have something to show (the My Searches summary). */
export function countStoresWithInventory(search: LocalSearch, context: ViewContext): number {
  return buildInventory(search, context).stores.filter((store) => store.available_models.length > 0)
    .length;
}

/** The search's restock history: its stores' changes for its product, newest first, and daily restocks. */
export function buildHistory(
  search: LocalSearch,
  days: number,
  context: ViewContext,
): SearchHistory {
  const home = context.catalog.findStore(search.store_id);
  const health = describeHealth(search, context);
  const dayCount = Math.min(30, Math.max(1, Math.floor(days)));
  const today = Math.floor(context.now / DAY_MS) * DAY_MS;
  const since = today - (dayCount - 1) * DAY_MS;
  const daily = Array.from({ length: dayCount }, (_, index) => ({
    date: new Date(since + index * DAY_MS).toISOString().slice(0, 10),
    restocks: 0,
  }));
  if (home === undefined) return { days: dayCount, events: [], daily, ...health };
  const names = new Map(
    context.catalog
      .listModels(search.product_type, home.country_code)
      .map((model) => [model.part_number, model.display_name]),
  );
  const distances = new Map<string, number | null>([[home.store_id, 0]]);
  for (const neighbour of listNearbyStores(
    context.state,
    search,
    context.defaultMaxDistanceMiles,
    context.catalog.findStore(search.store_id)?.country_code,
  )) {
    distances.set(neighbour.store_id, neighbour.distance_miles);
  }
  const events = context.state.events
    .filter(
      (event) => event.at >= since && distances.has(event.store_id) && names.has(event.part_number),
    )
    .sort((a, b) => b.at - a.at);
  for (const event of events) {
    if (event.to_status !== 'available') continue;
    const slot = daily[Math.floor((event.at - since) / DAY_MS)];
    if (slot !== undefined) slot.restocks += 1;
  }
  return {
    days: dayCount,
    events: events.slice(0, 500).map((event) => ({
      id: event.id,
      store_id: event.store_id,
      store_name: event.store_name,
      distance_miles: distances.get(event.store_id) ?? null,
      part_number: event.part_number,
      display_name: names.get(event.part_number) ?? event.part_number,
      from_status: event.from_status,
      to_status: event.to_status,
      pickup_quote: event.quote,
      observed_at: new Date(event.at).toISOString(),
    })),
    daily,
    ...health,
  };
}
