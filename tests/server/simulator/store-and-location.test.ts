import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_SEEDS } from '#shared/catalog/index.ts';
import { NEARBY_STORE_LIMIT, STORE_SEARCH_ERROR_MESSAGE } from '#server/simulator/index.ts';
import {
  buildPickupQuery,
  listCountryParts,
  startSimulatorHarness,
  type SimulatorHarness,
} from './support.ts';

// Which stores one pickup-message answer carries, and how an unknown place is refused. Which
// parts it reports: answered-parts.test.ts.

type WireStore = {
  storeNumber: string;
  country: string;
  storedistance: number;
  partsAvailability: Record<string, { pickupDisplay: string }>;
};
type WireList = { stores?: WireStore[]; errorMessage?: string; location?: string };
type Answer = {
  head: { status: string };
  body: WireList & { content?: { pickupMessage: WireList } };
};

function haversineKm(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) *
      Math.cos(b.latitude * rad) *
      Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

function listSeeds(locale: string): typeof STORE_SEEDS {
  return STORE_SEEDS.filter((store) => store.country_locale === locale);
}

describe('pickup-message store= and location=', () => {
  let harness: SimulatorHarness;
  beforeAll(async () => {
    // These tests are about answers, not the budget.
    harness = await startSimulatorHarness({ behaviour: { blockAfterRequests: 0 } });
  });
  afterAll(async () => harness.close());

  async function ask(countryPath: string, parts: string[], fields: Record<string, string>) {
    const answer = await harness.getFrom(
      `${countryPath}/shop/retail/pickup-message?${buildPickupQuery(parts, fields)}`,
    );
    expect(answer.status).toBe(200);
    return JSON.parse(answer.text) as Answer;
  }

  it('answers store= for that one store only, with or without searchNearby', async () => {
    const parts = listCountryParts('US', 3);
    const queries: Record<string, string>[] = [
      { store: 'R095' },
      { store: 'r095', searchNearby: 'true' },
      { store: 'R095', searchNearby: 'false' },
    ];
    for (const fields of queries) {
      const json = await ask('', parts, fields);
      expect(json.body.stores?.map((store) => store.storeNumber)).toEqual(['R095']);
      expect(Object.keys(json.body.stores?.[0]?.partsAvailability ?? {})).toEqual(parts);
    }
  });

  it('answers location= a postal code with the nearest twelve stores of the country, nearest first', async () => {
    const usSeeds = listSeeds('en_US');
    const origin = usSeeds.find((store) => store.store_id === 'R095');
    if (origin?.postal_code == null) throw new Error('R095 has no postal code');
    const json = await ask('', listCountryParts('US', 2), { location: origin.postal_code });
    const stores = json.body.stores ?? [];
    expect(stores).toHaveLength(NEARBY_STORE_LIMIT);
    expect(stores[0]?.storeNumber).toBe('R095');
    const expected = usSeeds
      .map((store) => ({ id: store.store_id, km: haversineKm(origin, store) }))
      .sort((a, b) => a.km - b.km || a.id.localeCompare(b.id))
      .slice(0, NEARBY_STORE_LIMIT)
      .map((entry) => entry.id);
    expect(stores.map((store) => store.storeNumber)).toEqual(expected);
    expect(json.body.location).toBe(origin.postal_code);
  });

  it('answers Hong Kong under its English path and the Chinese paths checkers use', async () => {
    const parts = listCountryParts('HK', 1);
    expect(parts).toHaveLength(1);
    for (const countryPath of ['/hk/en', '/hk', '/hk-zh']) {
      const json = await ask(countryPath, parts, { store: 'R409' });
      expect(
        json.body.stores?.map((store) => store.storeNumber),
        countryPath,
      ).toEqual(['R409']);
    }
  });

  it('reads a postal code with spacing and case ignored', async () => {
    const json = await ask('/uk', listCountryParts('GB', 1), { location: ' w1b2el ' });
    expect(json.body.stores?.[0]?.storeNumber).toBe('R092');
    expect(json.body.stores).toHaveLength(Math.min(NEARBY_STORE_LIMIT, listSeeds('en_GB').length));
  });

  it('answers location= a city name, any case, with the nearest stores to that city and no distance bound', async () => {
    const berlin = await ask('/de', listCountryParts('DE', 2), { location: 'BERLIN' });
    const germanStores = listSeeds('de_DE');
    // The twelve nearest German stores, however far: Augsburg's (~490 km away) included.
    expect(berlin.body.stores).toHaveLength(Math.min(NEARBY_STORE_LIMIT, germanStores.length));
    const [first, second, ...rest] = berlin.body.stores ?? [];
    const berlinIds = germanStores
      .filter((store) => store.city === 'Berlin')
      .map((s) => s.store_id);
    expect([first?.storeNumber, second?.storeNumber].sort()).toEqual([...berlinIds].sort());
    expect(rest.every((store) => store.storedistance > 150)).toBe(true);
    expect(rest.at(-1)?.storedistance).toBeGreaterThan(400);
    const distances = (berlin.body.stores ?? []).map((store) => store.storedistance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(berlin.body.location).toBe('Berlin');

    const newYork = await ask('', listCountryParts('US', 1), { location: 'new york' });
    const newYorkIds = listSeeds('en_US')
      .filter((store) => store.city === 'New York')
      .map((store) => store.store_id);
    expect(newYork.body.stores).toHaveLength(NEARBY_STORE_LIMIT);
    expect(newYork.body.stores?.map((store) => store.storeNumber)).toEqual(
      expect.arrayContaining(newYorkIds),
    );
    expect(newYork.body.stores?.every((store) => store.country === 'US')).toBe(true);
  });

  it('answers an unknown location, a city of another country or an unknown store with Apple’s store-search error', async () => {
    const parts = listCountryParts('US', 1);
    const queries: Record<string, string>[] = [
      { location: 'Atlantis' },
      { location: 'London' },
      { store: 'R092' },
      {},
    ];
    for (const fields of queries) {
      const json = await ask('', parts, fields);
      expect(json.head.status).toBe('200');
      expect(json.body.stores).toBeUndefined();
      expect(json.body.errorMessage).toBe(STORE_SEARCH_ERROR_MESSAGE);
    }
  });
});

describe('fulfillment-messages when alive', () => {
  let harness: SimulatorHarness;
  beforeAll(async () => {
    harness = await startSimulatorHarness({
      behaviour: { fulfillmentMessages: 'alive', blockAfterRequests: 0 },
    });
  });
  afterAll(async () => harness.close());

  it('answers location= a city with its nearest stores when searchNearby is on', async () => {
    const query = buildPickupQuery(listCountryParts('FR', 1), {
      searchNearby: 'true',
      location: 'paris',
    });
    const json = JSON.parse(
      (await harness.getFrom(`/fr/shop/fulfillment-messages?${query}`)).text,
    ) as Answer;
    expect(json.body.content?.pickupMessage.stores).toHaveLength(
      Math.min(NEARBY_STORE_LIMIT, listSeeds('fr_FR').length),
    );
  });

  it('answers without a store or location with each part’s eligibility and delivery per message type, and no stores', async () => {
    const parts = listCountryParts('US', 2);
    const query = `${buildPickupQuery(parts, { 'mts.1': 'sticky' })}&fts=true`;
    const json = JSON.parse(
      (await harness.getFrom(`/shop/fulfillment-messages?${query}`)).text,
    ) as {
      body: {
        content: {
          pickupMessage: {
            stores?: unknown;
            pickupEligibility: Record<string, { messageTypes: object }>;
          };
          deliveryMessage: Record<string, unknown>;
        };
      };
    };
    const { pickupMessage, deliveryMessage } = json.body.content;
    expect(pickupMessage.stores).toBeUndefined();
    expect(Object.keys(pickupMessage.pickupEligibility)).toEqual(parts);
    for (const part of parts) {
      expect(Object.keys(pickupMessage.pickupEligibility[part]?.messageTypes ?? {})).toEqual([
        'regular',
        'sticky',
      ]);
      expect(Object.keys(deliveryMessage[part] as object)).toEqual(['regular', 'sticky']);
    }
  });
});
