import { describe, expect, it } from 'vitest';
import {
  computeSweepSchedule,
  countHttpRequests,
  planAlertRequests,
  planRequests,
  sliceParts,
  topUpAlertRequests,
  type PlanTarget,
  type RequestPlanContext,
} from '#shared/watch/index.ts';

/** Two clusters of stores: A1-A3 list each other, B1-B2 list each other. */
const SEEDS = new Map([
  ['A1', { storeIds: ['A1', 'A2', 'A3'] }],
  ['A2', { storeIds: ['A2', 'A1', 'A3'] }],
  ['B1', { storeIds: ['B1', 'B2'] }],
]);

function buildContext(overrides: Partial<RequestPlanContext> = {}): RequestPlanContext {
  return {
    seeds: SEEDS,
    countParts: (_country, productId) => (productId === 'big' ? 30 : 10),
    partsPerRequest: 40,
    reservedParts: () => 1,
    ...overrides,
  };
}

function target(storeId: string, productId = 'phone', isAlerting = false): PlanTarget {
  return { countryCode: 'US', productId, storeId, isAlerting };
}

describe('planning requests by location seed', () => {
  it('covers every store with as few seeds as the learned answer lists allow', () => {
    const plan = planRequests(
      ['A1', 'A2', 'A3', 'B1', 'B2'].map((storeId) => target(storeId)),
      buildContext(),
    );
    expect(plan.map((request) => request.target)).toEqual([
      { kind: 'location', seedStoreId: 'A1' },
      { kind: 'location', seedStoreId: 'B1' },
    ]);
    expect(plan[0].covers.map((cover) => cover.storeId).sort()).toEqual(['A1', 'A2', 'A3']);
  });

  it('packs the types due at a seed’s stores up to the part limit, keeping one slot for the control part', () => {
    const plan = planRequests(
      [target('A1', 'big'), target('A2', 'phone'), target('A3', 'watch')],
      buildContext(),
    );
    // 30 + 10 parts exceed 39; 10 + 10 fit together.
    expect(plan.map((request) => request.productIds.sort())).toEqual([['big'], ['phone', 'watch']]);
    expect(countHttpRequests(plan)).toBe(2);
  });

  it('lets page-only targets ride in the free slots of an alerting request', () => {
    const plan = planRequests(
      [target('A1', 'phone', true), target('A3', 'watch', false)],
      buildContext(),
    );
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatchObject({ isAlerting: true, productIds: ['phone', 'watch'] });
  });

  it('asks a store alone when the only known answer for its seed left it out', () => {
    const plan = planRequests(
      [target('C1')],
      buildContext({ seeds: new Map([['C1', { storeIds: ['C2'] }]]) }),
    );
    expect(plan.map((request) => request.target)).toEqual([{ kind: 'store', storeId: 'C1' }]);
  });

  it('expects a seed never asked to list its store and its known neighbours', () => {
    const plan = planRequests(
      [target('D1'), target('D2')],
      buildContext({
        seeds: new Map(),
        estimateNeighbours: (storeId) => (storeId === 'D1' ? ['D2'] : []),
      }),
    );
    expect(plan.map((request) => request.target)).toEqual([
      { kind: 'location', seedStoreId: 'D1' },
    ]);
  });

  it('asks only the preferred parts of alerting searches in an alerting sweep, each once', () => {
    const plan = planAlertRequests(
      [
        { ...target('A1', 'phone', true), alertParts: ['P1', 'P2'] },
        { ...target('A2', 'phone', true), alertParts: ['P2'] },
        { ...target('A3', 'watch', false), alertParts: [] },
      ],
      buildContext(),
    );
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatchObject({ partNumbers: ['P1', 'P2'], httpRequests: 1 });
    expect(plan[0].covers).toHaveLength(2);
  });
});

describe('topping up alerting requests', () => {
  const alerting = (storeId: string, parts: string[], productId = 'phone'): PlanTarget => ({
    ...target(storeId, productId, true),
    alertParts: parts,
  });

  it('lets resting alerting targets the answer lists anyway ride along without another request', () => {
    const due = [alerting('A1', ['P1'])];
    const plan = planAlertRequests(due, buildContext());
    const topped = topUpAlertRequests(
      plan,
      [alerting('A3', ['P2']), alerting('B2', ['P3']), alerting('A2', ['P1'], 'tablet')],
      buildContext(),
    );
    expect(countHttpRequests(topped)).toBe(countHttpRequests(plan));
    expect(topped).toHaveLength(1);
    // B2 is not in A1's answer; A3 and A2 are, so their preferred parts are asked and covered.
    expect(topped[0].partNumbers).toEqual(['P1', 'P2']);
    expect(topped[0].covers.map((covered) => `${covered.productId}@${covered.storeId}`)).toEqual([
      'phone@A1',
      'phone@A3',
      'tablet@A2',
    ]);
    expect(topped[0].productIds).toEqual(['phone', 'tablet']);
  });

  it('adds no parts past the free slots of the request', () => {
    const plan = planAlertRequests([alerting('A1', ['P1'])], buildContext({ partsPerRequest: 3 }));
    const topped = topUpAlertRequests(
      plan,
      [alerting('A2', ['P2', 'P3']), alerting('A3', ['P4'])],
      buildContext({ partsPerRequest: 3 }),
    );
    // Two slots (one is the control part's): P1 and P4 fit, P2 and P3 together do not.
    expect(topped[0].partNumbers).toEqual(['P1', 'P4']);
    expect(topped[0].httpRequests).toBe(1);
  });
});

describe('the sweep schedule', () => {
  it('asks everything every interval while the budget covers both sweeps', () => {
    expect(
      computeSweepSchedule({
        budgetPerMinute: 10,
        intervalMs: 60_000,
        alertingSweepRequests: 3,
        fullSweepRequests: 5,
      }),
    ).toMatchObject({ alertingEveryIntervals: 1, pageOnlyEveryIntervals: 1 });
  });

  it('keeps every target within an hour where the budget allows and gives alerting sweeps the rest', () => {
    const schedule = computeSweepSchedule({
      budgetPerMinute: 10,
      intervalMs: 60_000,
      alertingSweepRequests: 113,
      fullSweepRequests: 221,
    });
    expect(schedule.allFreshWithinMs).toBeLessThanOrEqual(60 * 60_000);
    expect(schedule.alertingFreshWithinMs).toBeLessThanOrEqual(15 * 60_000);
  });

  it('never gives full sweeps more than half of a small budget, nor less than a fifth', () => {
    const schedule = computeSweepSchedule({
      budgetPerMinute: 1,
      intervalMs: 60_000,
      alertingSweepRequests: 100,
      fullSweepRequests: 200,
    });
    // Half a request a minute for the full sweep: every 400 intervals.
    expect(schedule.pageOnlyEveryIntervals).toBe(400);
    expect(schedule.alertingEveryIntervals).toBeLessThan(schedule.pageOnlyEveryIntervals);
  });
});

describe('giving each product type to as few seeds as list its stores', () => {
  /** Three answers in a row: A lists 1-3, B lists 3-5, C lists 5-7. */
  const CHAIN = new Map([
    ['S1', { storeIds: ['S1', 'S2', 'S3'] }],
    ['S4', { storeIds: ['S3', 'S4', 'S5'] }],
    ['S7', { storeIds: ['S5', 'S6', 'S7'] }],
  ]);
  const chainContext = (): RequestPlanContext =>
    buildContext({ seeds: CHAIN, partsPerRequest: 20 });

  it('asks a type watched where two answers overlap at one seed only, not at both', () => {
    // Set cover over stores gives S3 to S1's answer and S5 to S7's; the tablet, watched only
    // at S3 and S5, needs just S4's answer, which lists both.
    const plan = planRequests(
      [
        ...['S1', 'S2', 'S4', 'S6', 'S7'].map((storeId) => target(storeId, 'phone')),
        target('S3', 'tablet'),
        target('S5', 'tablet'),
      ],
      chainContext(),
    );
    const tabletSeeds = plan.filter((request) => request.productIds.includes('tablet'));
    expect(tabletSeeds).toHaveLength(1);
    expect(tabletSeeds[0].target).toEqual({ kind: 'location', seedStoreId: 'S4' });
    expect(tabletSeeds[0].covers.map((covered) => covered.storeId).sort()).toEqual(['S3', 'S5']);
    // Every target is still covered by a request whose answer lists its store.
    for (const request of plan) {
      for (const covered of request.covers)
        expect(request.expectedStoreIds).toContain(covered.storeId);
    }
  });

  it('counts an alerting request’s HTTP requests as the engine will cut its parts', () => {
    const parts = (prefix: string, count: number) =>
      Array.from({ length: count }, (_, index) => `${prefix}${index}`);
    const plan = planAlertRequests(
      [
        { ...target('A1', 'phone', true), alertParts: parts('P', 12) },
        { ...target('A2', 'tablet', true), alertParts: parts('T', 6) },
        { ...target('A3', 'watch', true), alertParts: parts('W', 8) },
      ],
      buildContext({ partsPerRequest: 20 }),
    );
    expect(plan).toHaveLength(1);
    const models = plan[0].covers.flatMap((covered) =>
      (covered.alertParts ?? []).map((part) => ({
        product_id: covered.productId,
        part_number: part,
      })),
    );
    // 12 + 6 fit in 19 places; 8 more need a second request.
    expect(plan[0].httpRequests).toBe(2);
    expect(sliceParts(models, 19)).toHaveLength(plan[0].httpRequests);
  });
});
