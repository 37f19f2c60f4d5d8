// The benchmark's population of searches: who watches what, where, and who gets alerts. Pure
// and seeded, so every run (and the test beside it) sees the same crowd.

/** One (store, product type) a search can watch: the product is sold in the store's country. */
export type Combo = { storeId: string; countryCode: string; productId: string; parts: string[] };

/** Plan codes, as on the users table. */
export type BenchPlan = 'good' | 'better' | 'best';

/** A user of the crowd and their searches. */
export type PlannedUser = { plan: BenchPlan; searches: PlannedSearch[] };

/** A search of the crowd; alerting when it prefers a model and has email on (paid plans only). */
export type PlannedSearch = {
  combo: Combo;
  preferredParts: string[];
  isEmailOn: boolean;
  isAlerting: boolean;
};

/** How the crowd is drawn; every share is a probability. */
export type CrowdShape = {
  /** Zipf exponent over product types by launch order (rank 1 = newest). */
  productExponent: number;
  /** Share of users on each plan. */
  planShares: Record<BenchPlan, number>;
  /** Most searches a user of the plan has (the plan's limit); each draws 1..max, skewed low. */
  searchesPerUserMax: Record<BenchPlan, number>;
  /** Share of searches that prefer one or two models. */
  preferredShare: number;
  /** Share of paid searches with the email switch on. */
  emailOnShare: number;
};

/** The crowd the benchmark seeds: launch demand piles onto the newest iPhones. */
export const DEFAULT_CROWD: CrowdShape = {
  productExponent: 1.1,
  planShares: { good: 0.6, better: 0.3, best: 0.1 },
  searchesPerUserMax: { good: 1, better: 5, best: 10 },
  preferredShare: 0.8,
  emailOnShare: 0.9,
};

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Picks index i of `count` with weight 1 / (i + 1)^exponent. */
export function createZipfPicker(
  count: number,
  exponent: number,
  random: () => number,
): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let index = 0; index < count; index += 1) {
    total += 1 / (index + 1) ** exponent;
    cumulative.push(total);
  }
  return () => {
    const roll = random() * total;
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle] < roll) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/**
 * Draws users until they hold `searchCount` searches. Product types follow a Zipf law over
 * `productOrder` (newest launch first), the store is uniform among the stores whose country
 * sells the type, and a user's searches are distinct combos.
 */
export function planCrowd(
  combos: readonly Combo[],
  productOrder: readonly string[],
  searchCount: number,
  random: () => number,
  shape: CrowdShape = DEFAULT_CROWD,
): PlannedUser[] {
  const byProduct = new Map<string, Combo[]>();
  for (const combo of combos) {
    const list = byProduct.get(combo.productId) ?? [];
    list.push(combo);
    byProduct.set(combo.productId, list);
  }
  const products = productOrder.filter((productId) => byProduct.has(productId));
  if (products.length === 0) throw new Error('no product type has a store selling it');
  const pickProduct = createZipfPicker(products.length, shape.productExponent, random);
  const pickPlan = (): BenchPlan => {
    const roll = random();
    if (roll < shape.planShares.good) return 'good';
    return roll < shape.planShares.good + shape.planShares.better ? 'better' : 'best';
  };
  const users: PlannedUser[] = [];
  let planned = 0;
  while (planned < searchCount) {
    const plan = pickPlan();
    // Most users keep one or two searches even when the plan allows ten.
    const wanted = 1 + Math.floor(random() ** 2 * shape.searchesPerUserMax[plan]);
    const count = Math.min(wanted, shape.searchesPerUserMax[plan], searchCount - planned);
    const seen = new Set<string>();
    const searches: PlannedSearch[] = [];
    for (let attempt = 0; searches.length < count && attempt < count * 10; attempt += 1) {
      const candidates = byProduct.get(products[pickProduct()]) ?? [];
      const combo = candidates[Math.floor(random() * candidates.length)];
      const key = `${combo.productId}:${combo.storeId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const preferredParts =
        random() < shape.preferredShare
          ? pickParts(combo.parts, 1 + Math.floor(random() * 2), random)
          : [];
      const isEmailOn = plan !== 'good' && random() < shape.emailOnShare;
      searches.push({
        combo,
        preferredParts,
        isEmailOn,
        isAlerting: isEmailOn && preferredParts.length > 0,
      });
    }
    planned += searches.length;
    users.push({ plan, searches });
  }
  return users;
}

/** How many leading users hold at least `searchCount` searches (all of them if they hold fewer). */
export function countUsersForSearches(users: readonly PlannedUser[], searchCount: number): number {
  let searches = 0;
  for (const [index, user] of users.entries()) {
    searches += user.searches.length;
    if (searches >= searchCount) return index + 1;
  }
  return users.length;
}

/** `count` distinct parts (fewer when there are fewer), popular colours no likelier than others. */
function pickParts(parts: readonly string[], count: number, random: () => number): string[] {
  const pool = [...parts];
  const picked: string[] = [];
  while (picked.length < count && pool.length > 0) {
    picked.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  }
  return picked;
}

/** Counts of a crowd: searches, alerting ones, distinct groups, share on the top product types. */
export type CrowdSummary = {
  users: number;
  searches: number;
  alertingSearches: number;
  groups: number;
  alertingGroups: number;
  /** Share of searches on the `topCount` most watched product types. */
  topShare: number;
  topProducts: string[];
};

/** Summarises a crowd for the printed settings and the test. */
export function summariseCrowd(users: readonly PlannedUser[], topCount = 4): CrowdSummary {
  const searches = users.flatMap((user) => user.searches);
  const groups = new Map<string, boolean>();
  const perProduct = new Map<string, number>();
  for (const search of searches) {
    const key = `${search.combo.countryCode}:${search.combo.productId}:${search.combo.storeId}`;
    groups.set(key, (groups.get(key) ?? false) || search.isAlerting);
    perProduct.set(search.combo.productId, (perProduct.get(search.combo.productId) ?? 0) + 1);
  }
  const ranked = [...perProduct].sort((a, b) => b[1] - a[1]).slice(0, topCount);
  return {
    users: users.length,
    searches: searches.length,
    alertingSearches: searches.filter((search) => search.isAlerting).length,
    groups: groups.size,
    alertingGroups: [...groups.values()].filter(Boolean).length,
    topShare: ranked.reduce((sum, [, count]) => sum + count, 0) / Math.max(1, searches.length),
    topProducts: ranked.map(([productId]) => productId),
  };
}
