import type { z } from 'zod';
import type { LocalSearch } from '#shared/desktop/local-search.ts';
import { mergeObservedStatus, type PickupAnswer } from '#shared/upstream/index.ts';
import { listObservations } from '#shared/watch/engine/index.ts';
import { isAlertAllowed, type StatusChange } from '#shared/watch/quiet-window.ts';
import { convertToMiles } from '#shared/watch/types.ts';
import { findDefaultMaxDistanceMiles } from '#shared/domain/alert-distance.ts';
import { measureStoreMiles, type LocalWatchCatalog } from './local-catalog.ts';
import {
  alertKey,
  pruneEvents,
  type localAlertSchema,
  snapshotKey,
  type LocalNeighbour,
  type LocalWatchState,
} from './state.ts';

/** One alert: a preferred model newly available at a search's store or a nearby store. */
export type LocalAlert = z.infer<typeof localAlertSchema>;

/** Rules that decide which changes alert. */
export type AlertRules = { quietWindowMs: number; defaultMaxDistanceMiles: number | null };

/**
 * The nearby-store limit of a search: its own, else the app's default, else the default of the
 * store's country (30 mi, or 50 km where distances are in km; issue 42: near means near, so
 * the Mac never names a store hundreds of miles away either).
 */
export function resolveDistanceLimit(
  search: LocalSearch,
  defaultMiles: number | null,
  countryCode: string | undefined,
): number {
  return (
    search.max_distance_miles ?? defaultMiles ?? findDefaultMaxDistanceMiles(countryCode ?? 'US')
  );
}

/** The search's neighbours within its distance limit, nearest first ([] without nearby results). */
export function listNearbyStores(
  state: LocalWatchState,
  search: LocalSearch,
  defaultMiles: number | null,
  countryCode?: string,
): LocalNeighbour[] {
  if (!search.include_nearby_store_results) return [];
  const limit = resolveDistanceLimit(search, defaultMiles, countryCode);
  return (state.neighbours[search.store_id] ?? []).filter(
    (neighbour) => (neighbour.distance_miles ?? Infinity) <= limit,
  );
}

/** What one answer speaks for. */
export type AnswerScope = {
  countryCode: string;
  /** Parts asked (the control part included); a listed part outside them is not filed. */
  parts: ReadonlySet<string>;
  /** Product types of the watched parts asked: their searches may alert. */
  productIds: ReadonlySet<string>;
  /** The store whose location was asked: Apple's distances are from it. */
  originStoreId: string | null;
};

/**
 * Files one upstream answer into memory: every listed store's neighbours (Apple's distances
 * for the store whose location was asked, the catalog's for the others), every asked part's
 * status (an `unknown` never replaces a known one), the restock history, and the alerts for
 * searches of the answer's country and product types. Answers how many statuses changed.
 */
export function applyAnswer(
  state: LocalWatchState,
  scope: AnswerScope,
  answer: PickupAnswer,
  searches: readonly LocalSearch[],
  catalog: LocalWatchCatalog,
  rules: AlertRules,
): { changes: number; alerts: LocalAlert[] } {
  const at = answer.observedAt;
  recordNeighbours(state, scope, answer, catalog, new Set(searches.map((s) => s.store_id)));
  const transitions: {
    storeId: string;
    storeName: string;
    partNumber: string;
    quote: string | null;
  }[] = [];
  let changes = 0;
  const observations = listObservations(answer, {
    isFiled: (partNumber) => scope.parts.has(partNumber),
    findPrevious: (storeId, partNumber) => {
      const previous = state.snapshots[snapshotKey(storeId, partNumber)];
      return previous === undefined
        ? undefined
        : { status: previous.status, observedAt: previous.observed_at };
    },
  });
  for (const observation of observations) {
    const key = snapshotKey(observation.storeId, observation.partNumber);
    const previous = state.snapshots[key];
    const { lastKnown } = observation;
    const merged = mergeObservedStatus(lastKnown, observation.status);
    if (merged === null) continue;
    const storeName = catalog.findStore(observation.storeId)?.store_name ?? observation.storeName;
    if (observation.isChange) {
      changes += 1;
      state.events.push({
        id: String(state.next_event_id++),
        store_id: observation.storeId,
        store_name: storeName,
        part_number: observation.partNumber,
        from_status: lastKnown,
        to_status: merged,
        quote: observation.pickupQuote,
        at,
      });
    }
    if (observation.isRestock) {
      transitions.push({
        storeId: observation.storeId,
        storeName,
        partNumber: observation.partNumber,
        quote: observation.pickupQuote,
      });
    }
    state.snapshots[key] = {
      status: merged,
      changed_at: merged === lastKnown ? (previous?.changed_at ?? at) : at,
      observed_at: at,
      quote: observation.pickupQuote ?? previous?.quote ?? null,
    };
  }
  pruneEvents(state, at);
  const alerts = matchAlerts(
    state,
    scope.countryCode,
    scope.productIds,
    transitions,
    searches,
    catalog,
    rules,
    at,
  );
  return { changes, alerts };
}

/**
 * Each listed search store's neighbours are the other stores of the latest answer that listed it,
 * nearest first: Apple's distances from the asked store, the catalog's from any other.
 */
function recordNeighbours(
  state: LocalWatchState,
  scope: AnswerScope,
  answer: PickupAnswer,
  catalog: LocalWatchCatalog,
  /** Stores some search names: only their neighbours are worth keeping. */
  searchStoreIds: ReadonlySet<string>,
): void {
  for (const listed of answer.stores) {
    if (!searchStoreIds.has(listed.storeNumber)) continue;
    const home = catalog.findStore(listed.storeNumber);
    const isOrigin = listed.storeNumber === scope.originStoreId;
    const neighbours: LocalNeighbour[] = answer.stores
      .filter((store) => store.storeNumber !== listed.storeNumber)
      .map((store) => {
        const known = catalog.findStore(store.storeNumber);
        const distance = isOrigin
          ? store.distance === null
            ? null
            : convertToMiles(store.distance)
          : home === undefined || known === undefined
            ? null
            : measureStoreMiles(home, known);
        return {
          store_id: store.storeNumber,
          store_name: known?.store_name ?? store.name,
          city: store.city,
          state: store.state,
          distance_miles: distance,
        };
      })
      .sort((a, b) => (a.distance_miles ?? Infinity) - (b.distance_miles ?? Infinity));
    state.neighbours[listed.storeNumber] = neighbours;
  }
}

/** The alerts the transitions raise, each allowed by the quiet window; records them. */
function matchAlerts(
  state: LocalWatchState,
  countryCode: string,
  productIds: ReadonlySet<string>,
  transitions: { storeId: string; storeName: string; partNumber: string; quote: string | null }[],
  searches: readonly LocalSearch[],
  catalog: LocalWatchCatalog,
  rules: AlertRules,
  at: number,
): LocalAlert[] {
  const alerts: LocalAlert[] = [];
  for (const search of searches) {
    const home = catalog.findStore(search.store_id);
    if (home?.country_code !== countryCode || !productIds.has(search.product_type)) continue;
    const preferred = new Set(search.preferred_parts);
    const nearby = listNearbyStores(
      state,
      search,
      rules.defaultMaxDistanceMiles,
      home.country_code,
    );
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
        countryCode: home.country_code,
        observedAt: at,
      });
    }
  }
  return alerts;
}
