import { describe, expect, it } from 'vitest';
import {
  countHttpRequests,
  planAlertRequests,
  planRequests,
  type PlanTarget,
  type RequestPlanContext,
} from '#shared/watch/index.ts';

/** Two overlapping answers: A1's lists A1 and S2, B3's lists S2 and B3. */
const OVERLAP = new Map([
  ['A1', { storeIds: ['A1', 'S2'] }],
  ['B3', { storeIds: ['S2', 'B3'] }],
]);
const SIZES: Record<string, number> = { phone: 16, tablet: 4, watch: 10 };

function buildContext(): RequestPlanContext {
  return {
    seeds: OVERLAP,
    countParts: (_country, productId) => SIZES[productId] ?? 1,
    partsPerRequest: 20,
    reservedParts: () => 1,
  };
}

function target(storeId: string, productId: string, alertParts?: string[]): PlanTarget {
  return {
    countryCode: 'US',
    productId,
    storeId,
    isAlerting: alertParts !== undefined,
    alertParts,
  };
}

describe('moving targets to seeds with free places', () => {
  it('asks a small type at the other seed listing its store when that saves a request', () => {
    // At A1, 16 + 4 parts overflow 19 places; at B3, 10 + 4 fit in one request.
    const plan = planRequests(
      [target('A1', 'phone'), target('S2', 'tablet'), target('B3', 'watch')],
      buildContext(),
    );
    expect(countHttpRequests(plan)).toBe(2);
    const tablet = plan.find((request) => request.productIds.includes('tablet'))!;
    expect(tablet.target).toEqual({ kind: 'location', seedStoreId: 'B3' });
    expect(
      tablet.covers.filter((covered) => covered.productId === 'tablet').map((c) => c.storeId),
    ).toEqual(['S2']);
  });

  it('moves one alerting target, not its whole type, when its parts fit elsewhere', () => {
    const many = Array.from({ length: 18 }, (_, index) => `P${index}`);
    const plan = planAlertRequests(
      [
        target('A1', 'phone', many),
        target('S2', 'phone', ['Q', 'S']),
        target('B3', 'phone', ['Q', 'R']),
      ],
      buildContext(),
    );
    // Asked at A1, S2's two parts would make 20: one more request than at B3.
    expect(countHttpRequests(plan)).toBe(2);
    const atB3 = plan.find(
      (request) => request.target.kind === 'location' && request.target.seedStoreId === 'B3',
    )!;
    expect(atB3.covers.map((covered) => covered.storeId).sort()).toEqual(['B3', 'S2']);
    expect([...(atB3.partNumbers ?? [])].sort()).toEqual(['Q', 'R', 'S']);
  });

  it('asks a type at a seed the set cover did not choose when its answer lists that type’s stores together', () => {
    // Phones at A1, B4 and C7 need those three answers; the 12-part tablet, watched at S2 and
    // S6, would add a request to both A1's and C7's, while D9's answer lists both stores.
    const seeds = new Map([
      ['A1', { storeIds: ['A1', 'S2', 'S3'] }],
      ['B4', { storeIds: ['S3', 'B4', 'S5'] }],
      ['C7', { storeIds: ['S5', 'S6', 'C7'] }],
      ['D9', { storeIds: ['D9', 'S2', 'S6'] }],
    ]);
    const plan = planRequests(
      [
        ...['A1', 'B4', 'C7'].map((storeId) => target(storeId, 'phone')),
        target('S2', 'tablet'),
        target('S6', 'tablet'),
      ],
      {
        ...buildContext(),
        seeds,
        countParts: (_country, productId) => (productId === 'tablet' ? 12 : 9),
      },
    );
    expect(countHttpRequests(plan)).toBe(4);
    const tablet = plan.filter((request) => request.productIds.includes('tablet'));
    expect(tablet.map((request) => request.target)).toEqual([
      { kind: 'location', seedStoreId: 'D9' },
    ]);
  });
});
