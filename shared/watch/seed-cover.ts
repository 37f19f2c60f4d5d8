import type { RequestPlanContext } from './plan-context.ts';

// Which location seeds a sweep asks, and which of them asks for which product type at which
// store. Apple answers `location=` with the ~12 nearest stores of the country, so a seed's
// answer serves every search whose store it lists. Seeds are first chosen by greedy set cover
// over the stores (fewest answers that list every watched store); then each product type is
// covered on its own, among those seeds or among every indexed seed, so a type watched at one
// store of a seed's list is not asked at every seed that lists a store watching something
// else. What a seed asks is the sum of the types given to it, so what costs requests is
// seeds x parts, not seeds alone.

/** A chosen seed and the watched stores it is to answer for. */
export type ChosenSeed = { seed: string; stores: string[] };

/** The stores an answer for this seed is expected to list. */
export function expectSeedStores(
  seedStoreId: string,
  context: RequestPlanContext,
): readonly string[] {
  const known = context.seeds.get(seedStoreId);
  if (known !== undefined) return known.storeIds;
  return [seedStoreId, ...(context.estimateNeighbours?.(seedStoreId) ?? [])];
}

/**
 * Chooses seeds whose answers list every store in `stores` (greedy set cover over the learned
 * lists; a seed not asked yet is expected to list its store and its known neighbours). Among
 * seeds of equal gain the one listing more of `everyStore` wins. Answers the chosen seeds and
 * the stores no seed lists (to be asked alone with `store=`).
 */
export function chooseSeeds(
  stores: ReadonlySet<string>,
  everyStore: ReadonlySet<string>,
  context: RequestPlanContext,
): { chosen: ChosenSeed[]; alone: string[] } {
  const left = new Set(stores);
  const candidates = new Map<string, readonly string[]>();
  for (const seedStoreId of context.seeds.keys()) {
    candidates.set(seedStoreId, expectSeedStores(seedStoreId, context));
  }
  for (const storeId of stores) {
    if (!candidates.has(storeId)) candidates.set(storeId, expectSeedStores(storeId, context));
  }
  const gainOf = (listed: readonly string[]): number =>
    listed.reduce((sum, storeId) => sum + (left.has(storeId) ? 1 : 0), 0);
  const reachOf = (listed: readonly string[]): number =>
    listed.filter((storeId) => everyStore.has(storeId)).length;
  const queue = [...candidates]
    .map(([seed, listed]) => ({ seed, listed, gain: gainOf(listed), reach: reachOf(listed) }))
    .filter((entry) => entry.gain > 0)
    .sort((a, b) => b.gain - a.gain || b.reach - a.reach || a.seed.localeCompare(b.seed));
  const chosen: ChosenSeed[] = [];
  // Lazy greedy: a candidate's gain only shrinks as stores get covered.
  while (queue.length > 0 && left.size > 0) {
    const head = queue.shift()!;
    const fresh = gainOf(head.listed);
    if (fresh === 0) continue;
    const next = queue[0];
    if (
      next !== undefined &&
      (fresh < next.gain || (fresh === next.gain && head.reach < next.reach))
    ) {
      head.gain = fresh;
      const at = queue.findIndex(
        (entry) => entry.gain < fresh || (entry.gain === fresh && entry.reach < head.reach),
      );
      queue.splice(at === -1 ? queue.length : at, 0, head);
      continue;
    }
    const covered = head.listed.filter((storeId) => left.has(storeId));
    chosen.push({ seed: head.seed, stores: covered });
    for (const storeId of covered) left.delete(storeId);
  }
  dropRedundantSeeds(chosen, context);
  return { chosen, alone: [...left] };
}

/**
 * Greedy set cover can leave a seed whose stores later seeds also list: its stores move to
 * those seeds and it is dropped (latest picks first, they tend to carry the least).
 */
function dropRedundantSeeds(chosen: ChosenSeed[], context: RequestPlanContext): void {
  for (let index = chosen.length - 1; index >= 0; index -= 1) {
    const candidate = chosen[index];
    const homes = candidate.stores.map((storeId) =>
      chosen.find(
        (other) => other !== candidate && expectSeedStores(other.seed, context).includes(storeId),
      ),
    );
    if (homes.some((home) => home === undefined)) continue;
    candidate.stores.forEach((storeId, at) => homes[at]!.stores.push(storeId));
    chosen.splice(index, 1);
  }
}

/** Candidate seeds for covering types, with the stores each lists, in order of preference. */
export type SeedIndex = {
  lists: readonly { seed: string; listed: ReadonlySet<string> }[];
  /** Positions in `lists` of the seeds listing each store. */
  byStore: ReadonlyMap<string, readonly number[]>;
};

/** Indexes candidate seeds (a chosen seed also answers for the stores moved to it). */
export function indexSeeds(
  candidates: readonly ChosenSeed[],
  context: RequestPlanContext,
): SeedIndex {
  const lists = candidates.map((entry) => ({
    seed: entry.seed,
    listed: new Set([...expectSeedStores(entry.seed, context), ...entry.stores]),
  }));
  const byStore = new Map<string, number[]>();
  lists.forEach(({ listed }, at) => {
    for (const storeId of listed) {
      const positions = byStore.get(storeId) ?? [];
      positions.push(at);
      byStore.set(storeId, positions);
    }
  });
  return { lists, byStore };
}

/**
 * Covers one product type's stores with as few of the indexed seeds as their lists allow
 * (greedy, ties to the seed indexed first), then drops a seed whose stores the others list.
 * Answers, per seed, the stores it asks the type for; a store no seed lists is left out.
 */
export function coverTypeStores(
  stores: readonly string[],
  index: SeedIndex,
): Map<string, string[]> {
  const left = new Set(stores);
  const positions = [...new Set(stores.flatMap((storeId) => index.byStore.get(storeId) ?? []))];
  positions.sort((a, b) => a - b);
  const lists = positions.map((at) => index.lists[at]);
  const assigned = new Map<string, string[]>();
  while (left.size > 0) {
    let best: { seed: string; stores: string[] } | undefined;
    for (const { seed, listed } of lists) {
      const gain = [...listed].filter((storeId) => left.has(storeId));
      if (gain.length > (best?.stores.length ?? 0)) best = { seed, stores: gain };
    }
    if (best === undefined) break;
    assigned.set(best.seed, best.stores);
    for (const storeId of best.stores) left.delete(storeId);
  }
  // A seed picked early can end up listing only stores later picks list too: drop it.
  const listedBy = new Map(lists.map(({ seed, listed }) => [seed, listed]));
  for (const seed of [...assigned.keys()].reverse()) {
    const served = assigned.get(seed)!;
    const homes = served.map((storeId) =>
      [...assigned.keys()].find((other) => other !== seed && listedBy.get(other)!.has(storeId)),
    );
    if (homes.some((home) => home === undefined)) continue;
    served.forEach((storeId, at) => assigned.get(homes[at]!)!.push(storeId));
    assigned.delete(seed);
  }
  return assigned;
}
