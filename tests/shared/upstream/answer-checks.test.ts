import { describe, expect, it } from 'vitest';
import {
  chooseControlPart,
  judgeByControlPart,
  sortRetirementEvidence,
} from '#shared/upstream/answer-checks.ts';
import type { PickupStatus, StoreAvailability } from '#shared/upstream/types.ts';

describe('chooseControlPart', () => {
  it('takes the configured part whatever was seen', () => {
    expect(
      chooseControlPart({
        configured: 'MG6P4LL/A',
        busiest: { partNumber: 'MYMJ3LL/A', stores: 200, observedStores: 250 },
      }),
    ).toBe('MG6P4LL/A');
  });

  it('takes the busiest part when a quarter or more of the answering stores have it', () => {
    expect(
      chooseControlPart({
        configured: undefined,
        busiest: { partNumber: 'MYMJ3LL/A', stores: 70, observedStores: 270 },
      }),
    ).toBe('MYMJ3LL/A');
  });

  it('has no control in a launch week, when the busiest part is in stock at a store or two', () => {
    // As the control it would make every other area's answer look like a silent block.
    expect(
      chooseControlPart({
        configured: undefined,
        busiest: { partNumber: 'MYMJ3LL/A', stores: 2, observedStores: 4 },
      }),
    ).toBeNull();
    expect(
      chooseControlPart({
        configured: undefined,
        busiest: { partNumber: 'MYMJ3LL/A', stores: 30, observedStores: 270 },
      }),
    ).toBeNull();
    expect(chooseControlPart({ configured: undefined, busiest: undefined })).toBeNull();
  });

  it('never takes a part Apple retired, configured or busiest: its answers would all look broken', () => {
    const isRetired = (part: string) => part === 'MG6P4LL/A';
    expect(
      chooseControlPart({
        configured: 'MG6P4LL/A',
        busiest: { partNumber: 'MYMJ3LL/A', stores: 70, observedStores: 270 },
        isRetired,
      }),
    ).toBe('MYMJ3LL/A');
    expect(
      chooseControlPart({
        configured: undefined,
        busiest: { partNumber: 'MG6P4LL/A', stores: 70, observedStores: 270 },
        isRetired,
      }),
    ).toBeNull();
  });
});

/** A store reporting each given part with its status. */
function store(statuses: Record<string, PickupStatus> | PickupStatus): StoreAvailability {
  const lines = typeof statuses === 'string' ? { CTRL: statuses } : statuses;
  return {
    storeNumber: 'R095',
    name: 'Fifth Avenue',
    city: 'New York',
    state: 'NY',
    country: 'US',
    distance: null,
    latitude: null,
    longitude: null,
    parts: Object.entries(lines).map(([partNumber, status]) => ({
      partNumber,
      status,
      pickupQuote: null,
      productTitle: null,
      isPickEligible: null,
    })),
  };
}

describe('judgeByControlPart', () => {
  it('doubts an answer where the control part is unavailable at every listed store', () => {
    expect(judgeByControlPart([store('unavailable'), store('unavailable')], 'CTRL')).toBe(
      'implausible',
    );
    expect(judgeByControlPart([store('unavailable'), store('available')], 'CTRL')).toBe(
      'plausible',
    );
    expect(judgeByControlPart([store('unknown')], 'CTRL')).toBe('unchecked');
    expect(judgeByControlPart([store('unavailable')], null)).toBe('unchecked');
  });
});

describe('judgeByControlPart and a retired control', () => {
  it('judges nothing by a control ineligible at every store: Apple answers a retired part so', () => {
    expect(judgeByControlPart([store('ineligible'), store('ineligible')], 'CTRL')).toBe(
      'unchecked',
    );
    // One store's ineligible beside another's unavailable is that store's, not a retirement.
    expect(judgeByControlPart([store('ineligible'), store('unavailable')], 'CTRL')).toBe(
      'implausible',
    );
  });
});

describe('sortRetirementEvidence', () => {
  it('counts a part ineligible at every store towards retirement, and one sold somewhere against it', () => {
    const stores = [
      store({ GONE: 'ineligible', SOLD: 'unavailable', ONE: 'ineligible', HALF: 'ineligible' }),
      store({ GONE: 'ineligible', SOLD: 'ineligible', ONE: 'unavailable' }),
    ];
    // HALF is left out of the second store: that answer says nothing about it.
    expect(sortRetirementEvidence(stores, ['GONE', 'SOLD', 'ONE', 'HALF', 'ABSENT'])).toEqual({
      ineligible: ['GONE'],
      sold: ['SOLD', 'ONE'],
    });
  });

  it('learns nothing from an answer that lists no store', () => {
    expect(sortRetirementEvidence([], ['GONE'])).toEqual({ ineligible: [], sold: [] });
  });
});
