import type { LocalSearch } from '#shared/desktop/local-search.ts';
import {
  formatTargetKey,
  type PlanTarget,
  type RequestPlanContext,
} from '#shared/watch/request-planner.ts';
import {
  createPlanContext,
  CONTROL_WINDOW_MS,
  EXPECTED_NEIGHBOURS_PER_ANSWER,
  INVALID_PART_HOLD_MS,
  type BusiestPart,
} from '#shared/watch/engine/index.ts';
import { listNearestStoreIds, type LocalWatchCatalog } from './local-catalog.ts';
import { isPartRetired } from './local-retirement.ts';
import { invalidPartKey, type LocalTarget, type LocalWatchState } from './state.ts';

// What the local loop plans from: its searches become (country, product type, store) targets,
// and the server's request planner turns them into as few location-seed requests as the
// learned answer lists allow. The Mac learns its seed lists, refused parts and control part in
// its own memory instead of the server's database.

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

/**
 * The parts of a product type the loop asks for in a country: the catalog's, less refused and
 * retired ones.
 */
export function listAskedModels(
  catalog: LocalWatchCatalog,
  state: LocalWatchState,
  countryCode: string,
  productId: string,
  now: number,
): { part_number: string; display_name: string }[] {
  return catalog
    .listModels(productId, countryCode)
    .filter(
      (model) =>
        !isPartHeldOut(state, countryCode, model.part_number, now) &&
        !isPartRetired(state, catalog, countryCode, model.part_number),
    );
}

/**
 * The part seen available at the most of a country's stores within the control window of this
 * machine's answers (ties by part number), and how many of its stores answered at all; the
 * engine decides whether it is broad enough to be the control part.
 */
export function findBusiestLocalPart(
  state: LocalWatchState,
  catalog: LocalWatchCatalog,
  countryCode: string,
  now: number,
): BusiestPart | undefined {
  const storesByPart = new Map<string, number>();
  const observedStores = new Set<string>();
  for (const [key, snapshot] of Object.entries(state.snapshots)) {
    if (now - snapshot.observed_at > CONTROL_WINDOW_MS) continue;
    const [storeId = '', partNumber = ''] = key.split('|');
    if (catalog.findStore(storeId)?.country_code !== countryCode) continue;
    observedStores.add(storeId);
    if (snapshot.status !== 'available') continue;
    if (isPartHeldOut(state, countryCode, partNumber, now)) continue;
    if (isPartRetired(state, catalog, countryCode, partNumber)) continue;
    storesByPart.set(partNumber, (storesByPart.get(partNumber) ?? 0) + 1);
  }
  let best: BusiestPart | undefined;
  for (const [partNumber, stores] of storesByPart) {
    if (
      best === undefined ||
      stores > best.stores ||
      (stores === best.stores && partNumber < best.partNumber)
    ) {
      best = { partNumber, stores, observedStores: observedStores.size };
    }
  }
  return best;
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
  return createPlanContext({
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
    controlByCountry: options.controlByCountry,
  });
}
