import { describe, expect, it } from 'vitest';
import { planAlertRequests, planRequests, countHttpRequests } from '#shared/watch/index.ts';
import type { PlanTarget, RequestPlanContext } from '#shared/watch/index.ts';
import { computePlanBounds } from './plan-bounds.ts';

const context: RequestPlanContext = {
  // S1 and S2 share an answer; S9 is listed by no answer that lists them.
  seeds: new Map([
    ['S1', { storeIds: ['S1', 'S2'] }],
    ['S9', { storeIds: ['S9'] }],
  ]),
  countParts: () => 10,
  partsPerRequest: 20,
  reservedParts: () => 1,
};

function target(storeId: string, alertParts: string[] = []): PlanTarget {
  return {
    countryCode: 'US',
    productId: 'phone',
    storeId,
    isAlerting: alertParts.length > 0,
    alertParts,
  };
}

describe('the fewest requests any plan could take', () => {
  it('counts an answer per part for stores no answer lists together', () => {
    const targets = [target('S1', ['P1']), target('S2', ['P1']), target('S9', ['P1', 'P2'])];
    // Ten parts at two apart places: 20 places over 19 a request. P1 twice, P2 once: 3 places.
    expect(computePlanBounds(targets, context)).toEqual({ fullSweep: 2, alertingSweep: 1 });
  });

  it('is never above what the planner takes', () => {
    const targets = [target('S1', ['P1']), target('S2'), target('S9', ['P2'])];
    const bounds = computePlanBounds(targets, context);
    expect(bounds.fullSweep).toBeLessThanOrEqual(countHttpRequests(planRequests(targets, context)));
    expect(bounds.alertingSweep).toBeLessThanOrEqual(
      countHttpRequests(planAlertRequests(targets, context)),
    );
  });
});
