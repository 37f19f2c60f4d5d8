// Pure: which plan each seeded user is on and how many searches they own.
import { getPlan, type PlanCode } from '#shared/domain/plans.ts';

/** One seeded user: their plan and how many searches they own. */
export type SeededUserShape = { plan: PlanCode; searches: number };

/** What the mix is asked for. */
export type PlanMixOptions = {
  users: number;
  /** Total searches over all users; the result sums to exactly this. */
  searches: number;
  /** Share of users on each plan (normalised; the remainder after rounding goes to `best`). */
  shares: Record<PlanCode, number>;
  /** Premium users first in the list that own exactly the plan's maximum (never adjusted). */
  fullPremiumUsers: number;
  random: () => number;
};

/**
 * Assigns plans by share and gives each user between 1 and their plan's search limit
 * (Good 1, Better 5, Premium 10), drawn uniformly and then nudged one search at a time on
 * random users until the total is exact. Throws when the total cannot be reached.
 */
export function generatePlanMix(options: PlanMixOptions): SeededUserShape[] {
  const { users, searches, random } = options;
  const plans = buildPlanList(users, options.shares);
  const limits = plans.map((plan) => getPlan(plan).searches);
  const fullPremium = Math.min(options.fullPremiumUsers, plans.filter((p) => p === 'best').length);
  const pinned = new Set<number>();
  for (const [index, plan] of plans.entries()) {
    if (pinned.size >= fullPremium) break;
    if (plan === 'best') pinned.add(index);
  }
  const minimum = plans.reduce((sum, _, index) => sum + (pinned.has(index) ? limits[index] : 1), 0);
  const maximum = limits.reduce((sum, limit) => sum + limit, 0);
  if (searches < minimum || searches > maximum) {
    throw new Error(
      `${searches} searches cannot be spread over ${users} users on this mix (between ${minimum} and ${maximum})`,
    );
  }
  const counts = limits.map((limit, index) =>
    pinned.has(index) ? limit : 1 + Math.floor(random() * limit),
  );
  let total = counts.reduce((sum, count) => sum + count, 0);
  const adjustable = counts.map((_, index) => index).filter((index) => !pinned.has(index));
  while (total !== searches) {
    const index = adjustable[Math.floor(random() * adjustable.length)];
    if (total < searches && counts[index] < limits[index]) {
      counts[index] += 1;
      total += 1;
    } else if (total > searches && counts[index] > 1) {
      counts[index] -= 1;
      total -= 1;
    }
  }
  return plans.map((plan, index) => ({ plan, searches: counts[index] }));
}

/** `users` plan codes in shares, Premium first so pinned users come early. */
function buildPlanList(users: number, shares: Record<PlanCode, number>): PlanCode[] {
  const sum = shares.good + shares.better + shares.best;
  const good = Math.round((users * shares.good) / sum);
  const better = Math.round((users * shares.better) / sum);
  const best = Math.max(0, users - good - better);
  return [
    ...Array<PlanCode>(best).fill('best'),
    ...Array<PlanCode>(better).fill('better'),
    ...Array<PlanCode>(good).fill('good'),
  ];
}

/** mulberry32: a small seeded PRNG so every run seeds the same data. */
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
