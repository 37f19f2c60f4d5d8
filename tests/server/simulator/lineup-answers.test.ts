import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPickupQuery, startSimulatorHarness, type SimulatorHarness } from './support.ts';

// The simulator answers today's lineup (docs/catalog.md, "Today's lineup"): the countries and
// parts added in November 2026, and the parts retired since as Apple answers them, `ineligible`
// at every store.

type Answer = {
  body: {
    stores?: {
      storeNumber: string;
      partsAvailability: Record<string, { pickupDisplay: string }>;
    }[];
  };
};

describe('the simulator and the November 2026 lineup', () => {
  let harness: SimulatorHarness;
  beforeAll(async () => {
    harness = await startSimulatorHarness({ behaviour: { blockAfterRequests: 0 } });
  });
  afterAll(async () => harness.close());

  async function ask(
    countryPath: string,
    parts: readonly string[],
    fields: Record<string, string>,
  ) {
    const path = `${countryPath}/shop/retail/pickup-message?${buildPickupQuery(parts, fields)}`;
    const answer = await harness.getFrom(path);
    expect(answer.status).toBe(200);
    return JSON.parse(answer.text) as Answer;
  }

  it.each([
    { country: 'HK', path: '/hk/en', store: 'R409', part: 'MJRP4ZA/A' },
    { country: 'AE', path: '/ae', store: 'R597', part: 'MJX94AH/A' },
    { country: 'TH', path: '/th', store: 'R733', part: 'MJXN4ZP/A' },
    { country: 'TW', path: '/tw', store: 'R713', part: 'MG6J4ZP/A' },
    { country: 'US', path: '', store: 'R095', part: 'MHQK4LL/A' },
  ])('answers $part at $store ($country) as on sale', async ({ path, store, part }) => {
    const answer = await ask(path, [part], { store });
    const [only] = answer.body.stores ?? [];
    expect(only?.storeNumber).toBe(store);
    expect(['available', 'unavailable']).toContain(only?.partsAvailability[part]?.pickupDisplay);
  });

  it('answers the parts the 2026 refreshes retired ineligible at every store it lists', async () => {
    const retired = ['MU9D3LL/A', 'MU963LL/A', 'MDE04LL/A'];
    const answer = await ask('', [...retired, 'MHL64LL/A'], { location: '10153' });
    const stores = answer.body.stores ?? [];
    expect(stores.length).toBeGreaterThan(1);
    for (const store of stores) {
      for (const part of retired) {
        expect(store.partsAvailability[part]?.pickupDisplay, part).toBe('ineligible');
      }
      expect(store.partsAvailability['MHL64LL/A']?.pickupDisplay).not.toBe('ineligible');
    }
    const sydney = await ask('/au', ['MG8G4X/A', 'MG6J4X/A'], { store: 'R238' });
    const [au] = sydney.body.stores ?? [];
    expect(au?.partsAvailability['MG8G4X/A']?.pickupDisplay).toBe('ineligible');
    expect(au?.partsAvailability['MG6J4X/A']?.pickupDisplay).not.toBe('ineligible');
  });
});
