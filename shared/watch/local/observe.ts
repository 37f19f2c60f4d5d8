import type { LocalSearch } from '#shared/desktop/local-search.ts';
import type { DesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import {
  isStatusChange,
  isTransitionToAvailable,
  mergeObservedStatus,
  type KnownPickupStatus,
  type PickupAnswer,
} from '#shared/upstream/index.ts';
import type { PollGroupKey } from '#shared/watch/planner.ts';
import { isAlertAllowed, type StatusChange } from '#shared/watch/quiet-window.ts';
import { convertToMiles } from '#shared/watch/types.ts';
import {
  alertKey,
  pruneEvents,
  snapshotKey,
  type LocalNeighbour,
  type LocalWatchState,
} from './state.ts';

/** What the loop needs to know about the catalog. */
export type LocalWatchCatalog = Pick<DesktopCatalog, 'findStore' | 'listModels'>;

/** One alert: a preferred model newly available at a search's store or a nearby store. */
export type LocalAlert = {
  searchId: string;
  productType: string;
  storeId: string;
  storeName: string;
  partNumber: string;
  displayName: string;
  pickupQuote: string | null;
  distanceMiles: number | null;
  observedAt: number;
};

/** Rules that decide which changes alert. */
export type AlertRules = { quietWindowMs: number; defaultMaxDistanceMiles: number | null };

/** The nearby-store limit of a search: its own, else the app's default, else none. */
export function resolveDistanceLimit(
  search: LocalSearch,
  defaultMiles: number | null,
): number | null {
  return search.max_distance_miles ?? defaultMiles;
}

/** The search's neighbours within its distance limit, nearest first ([] without nearby results). */
export function listNearbyStores(
  state: LocalWatchState,
  search: LocalSearch,
  defaultMiles: number | null,
): LocalNeighbour[] {
  if (!search.include_nearby_store_results) return [];
  const limit = resolveDistanceLimit(search, defaultMiles);
  return (state.neighbours[search.store_id] ?? []).filter(
    (neighbour) => limit === null || (neighbour.distance_miles ?? Infinity) <= limit,
  );
}

/**
 * Files one upstream answer into memory: each listed store's neighbours (for the asked
 * store), every part's status (an `unknown` never replaces a known one), the restock history,
 * and the alerts for searches of this country and product. Answers how many statuses changed.
 */
export function applyAnswer(
  state: LocalWatchState,
  group: PollGroupKey,
  answer: PickupAnswer,
  searches: readonly LocalSearch[],
  catalog: LocalWatchCatalog,
  rules: AlertRules,
): { changes: number; alerts: LocalAlert[] } {
  const at = answer.observedAt;
  state.neighbours[group.storeId] = answer.stores
    .filter((store) => store.storeNumber !== group.storeId)
    .map((store) => ({
      store_id: store.storeNumber,
      store_name: catalog.findStore(store.storeNumber)?.store_name ?? store.name,
      city: store.city,
      state: store.state,
      distance_miles: store.distance === null ? null : convertToMiles(store.distance),
    }));
  const transitions: {
    storeId: string;
    storeName: string;
    partNumber: string;
    quote: string | null;
  }[] = [];
  let changes = 0;
  for (const store of answer.stores) {
    const storeName = catalog.findStore(store.storeNumber)?.store_name ?? store.name;
    for (const part of store.parts) {
      const key = snapshotKey(store.storeNumber, part.partNumber);
      const previous = state.snapshots[key];
      const lastKnown: KnownPickupStatus | null = previous?.status ?? null;
      const merged = mergeObservedStatus(lastKnown, part.status);
      if (merged === null) continue;
      if (isStatusChange(lastKnown, part.status)) {
        changes += 1;
        state.events.push({
          id: String(state.next_event_id++),
          store_id: store.storeNumber,
          store_name: storeName,
          part_number: part.partNumber,
          from_status: lastKnown,
          to_status: merged,
          quote: part.pickupQuote,
          at,
        });
      }
      if (isTransitionToAvailable(lastKnown, part.status)) {
        transitions.push({
          storeId: store.storeNumber,
          storeName,
          partNumber: part.partNumber,
          quote: part.pickupQuote,
        });
      }
      state.snapshots[key] = {
        status: merged,
        changed_at: merged === lastKnown ? (previous?.changed_at ?? at) : at,
        observed_at: at,
        quote: part.pickupQuote ?? previous?.quote ?? null,
      };
    }
  }
  pruneEvents(state, at);
  const alerts = matchAlerts(state, group, transitions, searches, catalog, rules, at);
  return { changes, alerts };
}

/** The alerts the transitions raise, each allowed by the quiet window; records them. */
function matchAlerts(
  state: LocalWatchState,
  group: PollGroupKey,
  transitions: { storeId: string; storeName: string; partNumber: string; quote: string | null }[],
  searches: readonly LocalSearch[],
  catalog: LocalWatchCatalog,
  rules: AlertRules,
  at: number,
): LocalAlert[] {
  const alerts: LocalAlert[] = [];
  for (const search of searches) {
    const home = catalog.findStore(search.store_id);
    if (home?.country_code !== group.countryCode || search.product_type !== group.productId)
      continue;
    const preferred = new Set(search.preferred_parts);
    const nearby = listNearbyStores(state, search, rules.defaultMaxDistanceMiles);
    const names = new Map(
      catalog
        .listModels(search.product_type, home.country_code)
        .map((m) => [m.part_number, m.display_name]),
    );
    for (const transition of transitions) {
      if (!preferred.has(transition.partNumber)) continue;
      const isHome = transition.storeId === search.store_id;
      const neighbour = nearby.find((candidate) => candidate.store_id === transition.storeId);
      if (!isHome && neighbour === undefined) continue;
      const key = alertKey(search.id, transition.storeId, transition.partNumber);
      const lastAlertedAt = state.alerts[key] ?? null;
      const changesSince: StatusChange[] = state.events
        .filter(
          (event) =>
            event.store_id === transition.storeId && event.part_number === transition.partNumber,
        )
        .map((event) => ({ status: event.to_status, at: event.at }));
      if (
        !isAlertAllowed({ lastAlertedAt, changesSince, now: at, windowMs: rules.quietWindowMs })
      ) {
        continue;
      }
      state.alerts[key] = at;
      alerts.push({
        searchId: search.id,
        productType: search.product_type,
        storeId: transition.storeId,
        storeName: transition.storeName,
        partNumber: transition.partNumber,
        displayName: names.get(transition.partNumber) ?? transition.partNumber,
        pickupQuote: transition.quote,
        distanceMiles: isHome ? null : (neighbour?.distance_miles ?? null),
        observedAt: at,
      });
    }
  }
  return alerts;
}
