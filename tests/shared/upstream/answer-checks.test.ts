import { describe, expect, it } from 'vitest';
import { chooseControlPart, judgeByControlPart } from '#shared/upstream/answer-checks.ts';
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
});

describe('judgeByControlPart', () => {
  const store = (status: PickupStatus): StoreAvailability => ({
    storeNumber: 'R095',
    name: 'Fifth Avenue',
    city: 'New York',
    state: 'NY',
    country: 'US',
    distance: null,
    latitude: null,
    longitude: null,
    parts: [
      { partNumber: 'CTRL', status, pickupQuote: null, productTitle: null, isPickEligible: null },
    ],
  });

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
