// How few requests any plan could take over the same answer lists, so that a figure of the
// planner is read against what is possible, not only against the old per-type plan. A request
// names one location and at most `capacity` parts, and its answer lists that location's stores.
// Two watched stores that no learned answer lists together can never share an answer, so a
// part watched at n such stores costs n part places at least, whatever the planner does.
import type { PlanTarget, RequestPlanContext } from '#shared/watch/index.ts';

/** Fewest HTTP requests of a full sweep and of an alerting sweep that any plan could take. */
export type PlanBounds = { fullSweep: number; alertingSweep: number };

/**
 * Lower bounds of both sweeps: per country, the part places every part needs (its stores no
 * answer lists together, and at least its stores over the longest list), over the places one
 * request has. A full sweep asks every part of a target's type, an alerting sweep the
 * target's preferred parts.
 */
export function computePlanBounds(
  targets: readonly PlanTarget[],
  context: RequestPlanContext,
): PlanBounds {
  const listing = new Map<string, string[]>();
  let longest = 1;
  for (const [seed, known] of context.seeds) {
    longest = Math.max(longest, known.storeIds.length);
    for (const storeId of known.storeIds)
      listing.set(storeId, [...(listing.get(storeId) ?? []), seed]);
  }
  const placesFor = (stores: ReadonlySet<string>): number =>
    Math.max(countApartStores(stores, listing), Math.ceil(stores.size / longest));
  const sumBound = (needs: Map<string, Map<string, { size: number; stores: Set<string> }>>) => {
    let requests = 0;
    for (const [countryCode, byKey] of needs) {
      const capacity = Math.max(1, context.partsPerRequest - context.reservedParts(countryCode));
      let places = 0;
      for (const need of byKey.values()) places += need.size * placesFor(need.stores);
      requests += Math.ceil(places / capacity);
    }
    return requests;
  };
  const full = new Map<string, Map<string, { size: number; stores: Set<string> }>>();
  const alerting = new Map<string, Map<string, { size: number; stores: Set<string> }>>();
  const note = (
    into: typeof full,
    countryCode: string,
    key: string,
    size: number,
    storeId: string,
  ): void => {
    const byKey = into.get(countryCode) ?? new Map<string, { size: number; stores: Set<string> }>();
    const need = byKey.get(key) ?? { size, stores: new Set<string>() };
    need.stores.add(storeId);
    byKey.set(key, need);
    into.set(countryCode, byKey);
  };
  for (const target of targets) {
    const size = Math.max(1, context.countParts(target.countryCode, target.productId));
    note(full, target.countryCode, target.productId, size, target.storeId);
    if (!target.isAlerting) continue;
    for (const part of target.alertParts ?? []) {
      note(alerting, target.countryCode, part, 1, target.storeId);
    }
  }
  return { fullSweep: sumBound(full), alertingSweep: sumBound(alerting) };
}

/**
 * Stores of which no two are listed by one answer (fewest first by how many answers list
 * them): each needs an answer of its own. A store no answer lists counts alone.
 */
function countApartStores(
  stores: ReadonlySet<string>,
  listing: ReadonlyMap<string, readonly string[]>,
): number {
  const used = new Set<string>();
  let count = 0;
  const ordered = [...stores].sort(
    (a, b) => (listing.get(a)?.length ?? 0) - (listing.get(b)?.length ?? 0) || a.localeCompare(b),
  );
  for (const storeId of ordered) {
    const seeds = listing.get(storeId) ?? [`store:${storeId}`];
    if (seeds.some((seed) => used.has(seed))) continue;
    for (const seed of seeds) used.add(seed);
    count += 1;
  }
  return count;
}
