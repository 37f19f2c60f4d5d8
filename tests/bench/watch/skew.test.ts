import { describe, expect, it } from 'vitest';
import {
  countUsersForSearches,
  createSeededRandom,
  createZipfPicker,
  planCrowd,
  summariseCrowd,
  type Combo,
} from './skew.ts';

const PRODUCTS = ['newest', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth'];

/** Eight product types at twenty stores each, with two parts per type. */
function listCombos(): Combo[] {
  return PRODUCTS.flatMap((productId) =>
    Array.from({ length: 20 }, (_, store) => ({
      storeId: `R${String(store).padStart(3, '0')}`,
      countryCode: 'US',
      productId,
      parts: [`${productId}-a`, `${productId}-b`],
    })),
  );
}

describe('createZipfPicker', () => {
  it('picks rank 1 about twice as often as rank 2 with exponent 1', () => {
    const pick = createZipfPicker(10, 1, createSeededRandom(1));
    const counts = new Array<number>(10).fill(0);
    for (let draw = 0; draw < 20_000; draw += 1) counts[pick()] += 1;
    expect(counts[0] / counts[1]).toBeGreaterThan(1.8);
    expect(counts[0] / counts[1]).toBeLessThan(2.2);
    expect(counts[9]).toBeGreaterThan(0);
  });
});

describe('planCrowd', () => {
  const users = planCrowd(listCombos(), PRODUCTS, 2000, createSeededRandom(7));
  const searches = users.flatMap((user) => user.searches);

  it('plans exactly the searches asked for, each user within their plan', () => {
    expect(searches).toHaveLength(2000);
    const limits = { good: 1, better: 5, best: 10 };
    for (const user of users) expect(user.searches.length).toBeLessThanOrEqual(limits[user.plan]);
  });

  it('puts most searches on the newest product types', () => {
    const summary = summariseCrowd(users);
    expect(summary.topProducts.slice(0, 2)).toEqual(['newest', 'second']);
    expect(summary.topShare).toBeGreaterThan(0.6);
  });

  it('makes only paid searches with a preferred model alerting', () => {
    for (const user of users) {
      for (const search of user.searches) {
        expect(search.isAlerting).toBe(
          user.plan !== 'good' && search.isEmailOn && search.preferredParts.length > 0,
        );
      }
    }
    const alerting = searches.filter((search) => search.isAlerting).length / searches.length;
    expect(alerting).toBeGreaterThan(0.3);
    expect(alerting).toBeLessThan(0.7);
  });

  it('gives the same crowd for the same seed', () => {
    const again = planCrowd(listCombos(), PRODUCTS, 2000, createSeededRandom(7));
    expect(again).toEqual(users);
  });
});

describe('countUsersForSearches', () => {
  it('counts the leading users that reach the search count, or all of them', () => {
    const user = (count: number) => ({
      plan: 'best' as const,
      searches: Array.from({ length: count }, () => ({
        combo: listCombos()[0],
        preferredParts: [],
        isEmailOn: false,
        isAlerting: false,
      })),
    });
    const users = [user(3), user(2), user(4)];
    expect(countUsersForSearches(users, 3)).toBe(1);
    expect(countUsersForSearches(users, 4)).toBe(2);
    expect(countUsersForSearches(users, 100)).toBe(3);
  });
});
