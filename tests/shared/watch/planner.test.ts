import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyCoverage,
  formatGroupKey,
  groupSearches,
  planCycle,
  type PollTargetState,
} from '#shared/watch/planner.ts';

const INTERVAL = 60_000;

type World = {
  searches: { countryCode: string; productId: string; storeId: string }[];
  /** Per answer, which other stores of the same country it lists (random, may change every time). */
  neighbourSeeds: number[];
  cycles: number;
  jitters: number[];
  /** Neighbour lists the planner believes in (may be wrong); none means staleness order only. */
  hintSeeds: number[] | null;
};

const worldArbitrary: fc.Arbitrary<World> = fc.record({
  searches: fc.array(
    fc.record({
      countryCode: fc.constantFrom('US', 'GB', 'JP'),
      productId: fc.constantFrom('iphone16', 'iphone16pro', 'ipadair'),
      storeId: fc.constantFrom('R001', 'R002', 'R003', 'R004', 'R005', 'R006', 'R007', 'R008'),
    }),
    { minLength: 1, maxLength: 60 },
  ),
  neighbourSeeds: fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
  cycles: fc.integer({ min: 1, max: 6 }),
  jitters: fc.array(fc.double({ min: -0.1, max: 0.1, noNaN: true }), {
    minLength: 6,
    maxLength: 6,
  }),
  hintSeeds: fc.option(fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), { nil: null }),
});

/**
 * Runs cycles the way the poller does: plan, then for each due group re-check coverage just
 * before asking (a neighbour's answer may have arrived), and apply each answer's coverage.
 */
function simulate(
  world: World,
  onCycleEnd: (targets: PollTargetState[], cycleStartedAt: number, requests: number) => void,
): void {
  const groups = groupSearches(world.searches);
  const targets = [...groups.values()].map(({ key }): PollTargetState => ({
    ...key,
    host: 'h',
    lastRequestedAt: null,
    lastCoveredAt: null,
    nextDueAt: 0,
  }));
  const stores = ['R001', 'R002', 'R003', 'R004', 'R005', 'R006', 'R007', 'R008'];
  const hints =
    world.hintSeeds === null
      ? undefined
      : {
          intervalMs: INTERVAL,
          neighbourIdsByStore: new Map(
            stores.map((store, index) => [
              store,
              stores.filter((_, bit) => ((world.hintSeeds![index] ?? 0) >> bit) & 1),
            ]),
          ),
        };
  let now = 1_000_000;
  let answerCount = 0;
  for (let cycle = 0; cycle < world.cycles; cycle += 1) {
    const cycleStartedAt = now;
    const plan = planCycle(targets, { now, cycleStartedAt, coolDownUntilByHost: new Map() }, hints);
    let requests = 0;
    for (const target of plan.due) {
      now += 500;
      const recheck = planCycle([target], { now, cycleStartedAt, coolDownUntilByHost: new Map() });
      if (recheck.due.length === 0) continue;
      requests += 1;
      const seed = world.neighbourSeeds[answerCount % world.neighbourSeeds.length] ?? 0;
      answerCount += 1;
      const listed = [target.storeId, ...stores.filter((_, index) => (seed >> index) & 1)];
      target.lastRequestedAt = now;
      applyCoverage(targets, {
        countryCode: target.countryCode,
        productId: target.productId,
        storeIds: listed,
        observedAt: now,
      });
    }
    onCycleEnd(targets, cycleStartedAt, requests);
    now = cycleStartedAt + INTERVAL * (1 + (world.jitters[cycle] ?? 0));
  }
}

describe('planner', () => {
  it('groups searches by country, product type and store', () => {
    const groups = groupSearches([
      { countryCode: 'US', productId: 'iphone16', storeId: 'R001', id: 1 },
      { countryCode: 'US', productId: 'iphone16', storeId: 'R001', id: 2 },
      { countryCode: 'US', productId: 'iphone16pro', storeId: 'R001', id: 3 },
    ]);
    expect([...groups.keys()]).toEqual(['US:iphone16:R001', 'US:iphone16pro:R001']);
    expect(groups.get('US:iphone16:R001')?.searches.map((search) => search.id)).toEqual([1, 2]);
  });

  it('covers every active search in every cycle', () => {
    fc.assert(
      fc.property(worldArbitrary, (world) => {
        const groupKeys = new Set(world.searches.map(formatGroupKey));
        simulate(world, (targets, cycleStartedAt) => {
          for (const search of world.searches) {
            const target = targets.find(
              (candidate) => formatGroupKey(candidate) === formatGroupKey(search),
            );
            expect(target?.lastCoveredAt ?? -1).toBeGreaterThanOrEqual(cycleStartedAt);
          }
          expect(targets.length).toBe(groupKeys.size);
        });
      }),
    );
  });

  it('never makes more requests in a cycle than there are groups', () => {
    fc.assert(
      fc.property(worldArbitrary, (world) => {
        const groupCount = new Set(world.searches.map(formatGroupKey)).size;
        simulate(world, (_targets, _start, requests) =>
          expect(requests).toBeLessThanOrEqual(groupCount),
        );
      }),
    );
  });

  it('never leaves a search uncovered for longer than one interval at the end of a cycle', () => {
    fc.assert(
      fc.property(worldArbitrary, (world) => {
        simulate(world, (targets, cycleStartedAt) => {
          // Each simulated request takes 500 ms, far below the interval.
          const cycleEnd = cycleStartedAt + targets.length * 500;
          for (const target of targets) {
            expect(
              cycleEnd - (target.lastCoveredAt ?? Number.NEGATIVE_INFINITY),
            ).toBeLessThanOrEqual(INTERVAL);
          }
        });
      }),
    );
  });

  it('asks fewer times than one request per search once neighbours cover each other', () => {
    const searches = ['R001', 'R002', 'R003', 'R004'].flatMap((storeId) =>
      [1, 2, 3].map(() => ({ countryCode: 'US', productId: 'iphone16', storeId })),
    );
    // Every answer lists all four stores, so after the first cycle taught each store its
    // neighbours, one request per cycle covers all twelve searches.
    let secondCycleRequests = -1;
    simulate(
      { searches, neighbourSeeds: [0b1111], cycles: 2, jitters: [0, 0], hintSeeds: null },
      (_t, _s, requests) => {
        secondCycleRequests = requests;
      },
    );
    expect(secondCycleRequests).toBe(1);
  });

  it('with neighbour hints, asks the group expected to cover the most others first', () => {
    const base = {
      countryCode: 'US',
      productId: 'iphone16',
      host: 'apple',
      lastRequestedAt: 1,
      lastCoveredAt: 500,
      nextDueAt: 0,
    };
    const targets = ['R001', 'R002', 'R003', 'R004'].map((storeId) => ({ ...base, storeId }));
    const neighbourIdsByStore = new Map([
      ['R001', ['R002']],
      ['R003', ['R001', 'R002', 'R004']],
    ]);
    const plan = planCycle(
      targets,
      { now: 1_000, cycleStartedAt: 1_000, coolDownUntilByHost: new Map() },
      { neighbourIdsByStore, intervalMs: INTERVAL },
    );
    expect(plan.due.map((target) => target.storeId)[0]).toBe('R003');
    expect(plan.due).toHaveLength(4);
  });

  it('orders due groups stalest first and leaves cooling hosts and backing-off groups alone', () => {
    const base = {
      countryCode: 'US',
      productId: 'iphone16',
      host: 'apple',
      lastRequestedAt: 1,
      nextDueAt: 0,
    };
    const plan = planCycle(
      [
        { ...base, storeId: 'R001', lastCoveredAt: 500 },
        { ...base, storeId: 'R002', lastCoveredAt: null },
        { ...base, storeId: 'R003', lastCoveredAt: 100 },
        { ...base, storeId: 'R004', lastCoveredAt: 50, nextDueAt: 5_000 },
        { ...base, storeId: 'R005', lastCoveredAt: 10, host: 'cn' },
      ],
      { now: 1_000, cycleStartedAt: 1_000, coolDownUntilByHost: new Map([['cn', 2_000]]) },
    );
    expect(plan.due.map((target) => target.storeId)).toEqual(['R002', 'R003', 'R001']);
    expect(plan.skipped.map(({ target, reason }) => [target.storeId, reason])).toEqual([
      ['R005', 'cooling_down'],
      ['R004', 'backing_off'],
    ]);
  });
});
