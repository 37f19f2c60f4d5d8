import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeFreshnessSchedule,
  describeFreshness,
  PAGE_ONLY_MIN_SHARE,
} from '#shared/watch/freshness.ts';
import { planCycle, type PollTargetState } from '#shared/watch/planner.ts';

const INTERVAL = 60_000;

describe('computeFreshnessSchedule', () => {
  it('asks every group every interval when the budget covers them all', () => {
    const schedule = computeFreshnessSchedule({
      budgetPerMinute: 30,
      intervalMs: INTERVAL,
      alertingGroups: 10,
      pageOnlyGroups: 20,
    });
    expect(schedule).toMatchObject({ alertingEveryIntervals: 1, pageOnlyEveryIntervals: 1 });
    expect(describeFreshness(schedule)).toBe('every group fresh within 2 min');
  });

  it('keeps alerting groups every interval and stretches page-only groups over the rest', () => {
    // 30 a minute: 10 alerting groups leave 20 requests an interval for 100 page-only groups.
    const schedule = computeFreshnessSchedule({
      budgetPerMinute: 30,
      intervalMs: INTERVAL,
      alertingGroups: 10,
      pageOnlyGroups: 100,
    });
    expect(schedule).toMatchObject({ alertingEveryIntervals: 1, pageOnlyEveryIntervals: 5 });
    expect(describeFreshness(schedule)).toBe(
      'every group fresh within 6 min (alerting groups within 2 min)',
    );
  });

  it('leaves page-only groups their minimum share when alerting groups exceed the budget', () => {
    const schedule = computeFreshnessSchedule({
      budgetPerMinute: 30,
      intervalMs: INTERVAL,
      alertingGroups: 240,
      pageOnlyGroups: 60,
    });
    // 24 requests an interval for alerting groups, 6 for page-only ones.
    expect(schedule).toMatchObject({ alertingEveryIntervals: 10, pageOnlyEveryIntervals: 10 });
  });

  it('adds the budgets of more workers into fresher groups', () => {
    const inputs = { intervalMs: INTERVAL, alertingGroups: 300, pageOnlyGroups: 900 };
    const one = computeFreshnessSchedule({ ...inputs, budgetPerMinute: 30 });
    const three = computeFreshnessSchedule({ ...inputs, budgetPerMinute: 90 });
    expect(three.allFreshWithinMs).toBeLessThan(one.allFreshWithinMs);
    expect(three.alertingFreshWithinMs).toBeLessThan(one.alertingFreshWithinMs);
  });

  it('says nothing is asked without a budget', () => {
    const schedule = computeFreshnessSchedule({
      budgetPerMinute: 0,
      intervalMs: INTERVAL,
      alertingGroups: 1,
      pageOnlyGroups: 1,
    });
    expect(describeFreshness(schedule)).toBe('no request budget: nothing is asked');
  });

  it('never plans more requests an interval than the budget allows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 600 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        (budgetPerMinute, alertingGroups, pageOnlyGroups) => {
          const schedule = computeFreshnessSchedule({
            budgetPerMinute,
            intervalMs: INTERVAL,
            alertingGroups,
            pageOnlyGroups,
          });
          const perInterval =
            alertingGroups / schedule.alertingEveryIntervals +
            pageOnlyGroups / schedule.pageOnlyEveryIntervals;
          expect(perInterval).toBeLessThanOrEqual(budgetPerMinute + 1e-9);
          // Page-only groups keep their share: at least a tenth of the budget (half the
          // minimum share, after rounding periods up), or all of them every interval.
          expect(pageOnlyGroups / schedule.pageOnlyEveryIntervals).toBeGreaterThanOrEqual(
            Math.min(pageOnlyGroups, (budgetPerMinute * PAGE_ONLY_MIN_SHARE) / 2),
          );
        },
      ),
    );
  });
});

/** A group of store `storeId`; alerting unless said otherwise. */
function makeTarget(
  storeId: string,
  overrides: Partial<PollTargetState> & { alerting?: number; launchRank?: number } = {},
): PollTargetState {
  const { alerting = 1, launchRank = 1, ...rest } = overrides;
  return {
    countryCode: 'US',
    productId: 'iphone16',
    storeId,
    host: 'apple',
    lastRequestedAt: 0,
    lastCoveredAt: 0,
    nextDueAt: 0,
    demand: { alertingSearches: alerting, searches: Math.max(1, alerting), launchRank },
    ...rest,
  };
}

describe('planCycle with a freshness schedule', () => {
  const schedule = { alertingEveryIntervals: 1, pageOnlyEveryIntervals: 3 };
  const hints = {
    neighbourIdsByStore: new Map<string, string[]>(),
    intervalMs: INTERVAL,
    schedule,
  };
  const start = 10 * INTERVAL;
  const context = { now: start, cycleStartedAt: start, coolDownUntilByHost: new Map() };

  it('asks alerting groups before page-only ones, even when the page-only one is staler', () => {
    const plan = planCycle(
      [
        makeTarget('R001', { alerting: 0, lastCoveredAt: start - 3.5 * INTERVAL }),
        makeTarget('R002', { lastCoveredAt: start - INTERVAL }),
      ],
      context,
      hints,
    );
    expect(plan.due.map((target) => target.storeId)).toEqual(['R002', 'R001']);
  });

  it('rests page-only groups until their period is up', () => {
    const plan = planCycle(
      [
        makeTarget('R001', { alerting: 0, lastCoveredAt: start - 1.5 * INTERVAL }),
        makeTarget('R002', { alerting: 0, lastCoveredAt: start - 2.5 * INTERVAL }),
      ],
      context,
      hints,
    );
    expect(plan.due.map((target) => target.storeId)).toEqual(['R002']);
    expect(plan.skipped.map(({ target, reason }) => [target.storeId, reason])).toEqual([
      ['R001', 'resting'],
    ]);
  });

  it('puts a page-only group past its staleness bound in the first tier', () => {
    const plan = planCycle(
      [
        makeTarget('R001', { lastCoveredAt: start - 2 * INTERVAL }),
        makeTarget('R002', { alerting: 0, lastCoveredAt: start - 4.5 * INTERVAL }),
      ],
      context,
      hints,
    );
    expect(plan.due.map((target) => target.storeId)).toEqual(['R002', 'R001']);
  });

  it('among equally stale alerting groups asks the newer launch and the bigger crowd first', () => {
    const plan = planCycle(
      [
        makeTarget('R001', { alerting: 1, launchRank: 5 }),
        makeTarget('R002', { alerting: 1, launchRank: 1 }),
        makeTarget('R003', { alerting: 9, launchRank: 5 }),
      ],
      context,
      hints,
    );
    expect(plan.due.map((target) => target.storeId)).toEqual(['R003', 'R002', 'R001']);
  });

  it('keeps every group within its bound over many cycles at the computed schedule', () => {
    const alerting = Array.from({ length: 10 }, (_, index) => makeTarget(`A${index}`));
    const pageOnly = Array.from({ length: 100 }, (_, index) =>
      makeTarget(`P${index}`, { alerting: 0 }),
    );
    const targets = [...alerting, ...pageOnly].map((target) => ({
      ...target,
      lastCoveredAt: null,
    }));
    const budget = computeFreshnessSchedule({
      budgetPerMinute: 30,
      intervalMs: INTERVAL,
      alertingGroups: alerting.length,
      pageOnlyGroups: pageOnly.length,
    });
    const worst = { alerting: 0, all: 0 };
    for (let cycle = 0; cycle < 30; cycle += 1) {
      const cycleStartedAt = cycle * INTERVAL;
      const plan = planCycle(
        targets,
        { now: cycleStartedAt, cycleStartedAt, coolDownUntilByHost: new Map() },
        { neighbourIdsByStore: new Map(), intervalMs: INTERVAL, schedule: budget },
      );
      // The budget's requests, spread over the interval; whatever is left waits a cycle.
      const asked = plan.due.slice(0, budget.requestsPerInterval);
      asked.forEach((target, index) => {
        const at = cycleStartedAt + (index / budget.requestsPerInterval) * INTERVAL;
        if (cycle >= 6 && target.lastCoveredAt !== null) {
          const staleness = at - target.lastCoveredAt;
          worst.all = Math.max(worst.all, staleness);
          if (target.storeId.startsWith('A')) worst.alerting = Math.max(worst.alerting, staleness);
        }
        target.lastCoveredAt = at;
        target.lastRequestedAt = at;
      });
    }
    expect(worst.alerting).toBeLessThanOrEqual(budget.alertingFreshWithinMs);
    expect(worst.all).toBeLessThanOrEqual(budget.allFreshWithinMs);
    expect(worst.alerting).toBeLessThan(worst.all);
  });
});
