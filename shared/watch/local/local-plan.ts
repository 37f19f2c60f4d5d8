import type { LocalSearch } from '#shared/desktop/local-search.ts';
import {
  formatTargetKey,
  type PlanTarget,
  type RequestPlanContext,
} from '#shared/watch/request-planner.ts';
import type { LocalWatchCatalog } from './observe.ts';
import { invalidPartKey, type LocalTarget, type LocalWatchState } from './state.ts';

// What the local loop plans from: its searches become (country, product type, store) targets,
// and the server's request planner turns them into as few location-seed requests as the
// learned answer lists allow. The Mac learns its seed lists, refused parts and control part in
// its own memory instead of the server's database.

/** The control part is the one seen available at the most stores within this window. */
export const CONTROL_WINDOW_MS = 60 * 60_000;
/** How long a part Apple refused stays out of requests (unless the catalog drops it first). */
export const INVALID_PART_HOLD_MS = 24 * 60 * 60_000;
/** Stores an answer is expected to list besides the seed's own (Apple lists about a dozen). */
const EXPECTED_NEIGHBOURS_PER_ANSWER = 11;
const EARTH_RADIUS_MILES = 3958.8;

/** A seed's location: the store's postal code, or its city where it has none (as the server). */
export function chooseSeedLocation(postalCode: string | null, city: string): string {
  const code = postalCode?.trim() ?? '';
  return code === '' ? city : code;
}

/** Great-circle distance in miles between two catalog stores; null without coordinates. */
export function measureStoreMiles(
  from: { latitude: number | null; longitude: number | null },
  to: { latitude: number | null; longitude: number | null },
): number | null {
  if (from.latitude === null || from.longitude === null) return null;
  if (to.latitude === null || to.longitude === null) return null;
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(to.latitude - from.latitude);
  const dLon = radians(to.longitude - from.longitude);
  const a =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(from.latitude)) * Math.cos(radians(to.latitude)) * Math.sin(dLon / 2) ** 2;
  const miles = 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
  return Math.round(miles * 10) / 10;
}

/** The catalog stores of the same country nearest to a store, nearest first (itself excluded). */
export function listNearestStoreIds(
  catalog: LocalWatchCatalog,
  storeId: string,
  limit: number,
): string[] {
  const home = catalog.findStore(storeId);
  if (home === undefined) return [];
  return catalog
    .listCountryStores(home.country_code)
    .filter((store) => store.store_id !== storeId)
    .map((store) => ({ id: store.store_id, miles: measureStoreMiles(home, store) ?? Infinity }))
    .sort((a, b) => a.miles - b.miles || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((entry) => entry.id);
}

/** True while a refused part is still left out of requests. */
export function isPartHeldOut(
  state: LocalWatchState,
  countryCode: string,
  partNumber: string,
  now: number,
): boolean {
  const held = state.invalid_parts[invalidPartKey(countryCode, partNumber)];
  return held !== undefined && now - held.found_at < INVALID_PART_HOLD_MS;
}

/** The parts of a product type the loop asks for in a country: the catalog's, less refused ones. */
export function listAskedModels(
  catalog: LocalWatchCatalog,
  state: LocalWatchState,
  countryCode: string,
  productId: string,
  now: number,
): { part_number: string; display_name: string }[] {
  return catalog
    .listModels(productId, countryCode)
    .filter((model) => !isPartHeldOut(state, countryCode, model.part_number, now));
}

/**
 * The country's control part: the part seen available at the most of its stores within the
 * last hour of this Mac's answers (ties by part number), or none before anything was seen.
 */
export function chooseControlPart(
  state: LocalWatchState,
  catalog: LocalWatchCatalog,
  countryCode: string,
  now: number,
): string | null {
  const storesByPart = new Map<string, number>();
  for (const [key, snapshot] of Object.entries(state.snapshots)) {
    if (snapshot.status !== 'available' || now - snapshot.observed_at > CONTROL_WINDOW_MS) continue;
    const [storeId = '', partNumber = ''] = key.split('|');
    if (catalog.findStore(storeId)?.country_code !== countryCode) continue;
    if (isPartHeldOut(state, countryCode, partNumber, now)) continue;
    storesByPart.set(partNumber, (storesByPart.get(partNumber) ?? 0) + 1);
  }
  let best: { part: string; stores: number } | null = null;
  for (const [part, stores] of storesByPart) {
    if (best === null || stores > best.stores || (stores === best.stores && part < best.part)) {
      best = { part, stores };
    }
  }
  return best?.part ?? null;
}

/** Drops refused parts whose hold ran out or that the catalog no longer sells. */
export function pruneInvalidParts(
  state: LocalWatchState,
  catalog: LocalWatchCatalog,
  now: number,
): void {
  for (const [key, held] of Object.entries(state.invalid_parts)) {
    const isSold = catalog
      .listModels(held.product_id, held.country_code)
      .some((model) => model.part_number === held.part_number);
    if (!isSold || now - held.found_at >= INVALID_PART_HOLD_MS) delete state.invalid_parts[key];
  }
}

/**
 * The targets worth asking for now, in the planner's priority order: alerting ones first, then
 * the stalest. A target backing off after a failure waits for its turn.
 */
export function listDueTargets(
  state: LocalWatchState,
  searches: readonly LocalSearch[],
  options: { now: number; isNotifying: boolean },
): PlanTarget[] {
  const alerting = new Set<string>();
  for (const search of searches) {
    if (!options.isNotifying || search.preferred_parts.length === 0) continue;
    for (const target of Object.values(state.targets)) {
      if (target.product_id === search.product_type && target.store_id === search.store_id) {
        alerting.add(formatLocalTargetKey(target));
      }
    }
  }
  return Object.values(state.targets)
    .filter((target) => target.consecutive_failures === 0 || target.next_due_at <= options.now)
    .sort(
      (a, b) =>
        Number(alerting.has(formatLocalTargetKey(b))) -
          Number(alerting.has(formatLocalTargetKey(a))) ||
        (a.last_covered_at ?? -Infinity) - (b.last_covered_at ?? -Infinity),
    )
    .map((target) => ({
      countryCode: target.country_code,
      productId: target.product_id,
      storeId: target.store_id,
      isAlerting: alerting.has(formatLocalTargetKey(target)),
    }));
}

/** Key of a stored target (the same as the planner's target key). */
export function formatLocalTargetKey(target: LocalTarget): string {
  return formatTargetKey({
    countryCode: target.country_code,
    productId: target.product_id,
    storeId: target.store_id,
  });
}

/** What the request planner reads from this Mac's memory and catalog. */
export function buildPlanContext(
  state: LocalWatchState,
  catalog: LocalWatchCatalog,
  options: { now: number; partsPerRequest: number; controlByCountry: ReadonlyMap<string, string> },
): RequestPlanContext {
  return {
    seeds: new Map(
      Object.entries(state.seeds).map(([seedStoreId, seed]) => [
        seedStoreId,
        { storeIds: seed.store_ids },
      ]),
    ),
    estimateNeighbours: (storeId) =>
      listNearestStoreIds(catalog, storeId, EXPECTED_NEIGHBOURS_PER_ANSWER),
    countParts: (countryCode, productId) =>
      listAskedModels(catalog, state, countryCode, productId, options.now).length,
    partsPerRequest: options.partsPerRequest,
    reservedParts: (countryCode) => (options.controlByCountry.has(countryCode) ? 1 : 0),
  };
}
