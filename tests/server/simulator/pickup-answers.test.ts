import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_SEEDS } from '#shared/catalog/index.ts';
import type { PickupAnswer } from '#shared/upstream/index.ts';
import { LEGACY_SIMULATOR_BEHAVIOUR, STORE_SEARCH_ERROR_MESSAGE } from '#server/simulator/index.ts';
import {
  expectAnswer,
  getDisplayName,
  listPartNumbers,
  startSimulatorHarness,
  type SimulatorHarness,
  BROWSER_HEADERS,
} from './support.ts';

// Independent of the simulator's own helper so a wrong formula there shows up here.
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

function findSeed(storeId: string): (typeof STORE_SEEDS)[number] {
  const store = STORE_SEEDS.find((candidate) => candidate.store_id === storeId);
  if (store === undefined) throw new Error(`no seed ${storeId}`);
  return store;
}

function expectNearestFirst(answer: PickupAnswer, originId: string, unit: 'mi' | 'km'): void {
  const origin = findSeed(originId);
  expect(answer.stores[0]?.storeNumber).toBe(originId);
  expect(answer.stores[0]?.distance).toEqual({ value: 0, unit });
  const values = answer.stores.map((store) => store.distance?.value ?? Number.NaN);
  expect(values).toEqual([...values].sort((a, b) => a - b));
  for (const store of answer.stores) {
    const km = haversineKm(origin, findSeed(store.storeNumber));
    const expected = unit === 'mi' ? km / 1.609344 : km;
    expect(store.distance?.unit).toBe(unit);
    expect(Math.abs((store.distance?.value ?? -1) - expected)).toBeLessThan(0.02);
  }
}

// Wire format and geography, asked through the product's client against the 2021-2024
// service (fulfillment-messages alive, no block); Apple-today defaults have their own files.
describe('upstream simulator pickup answers', () => {
  let harness: SimulatorHarness;
  beforeAll(async () => {
    harness = await startSimulatorHarness({ behaviour: LEGACY_SIMULATOR_BEHAVIOUR });
  });
  afterAll(async () => harness.close());

  it('answers fulfillment-messages for a US store with it first and its eleven nearest US neighbours', async () => {
    // iPhone 16: sold in the US (a retired part would read ineligible everywhere).
    const parts = listPartNumbers('US', 'iphone16');
    const answer = expectAnswer(
      await harness.ask({ countryCode: 'US', storeNumber: 'R095', partNumbers: parts }),
    );
    expect(answer.endpoint).toBe('fulfillment-messages');
    expect(new URL(answer.url).pathname).toBe('/shop/fulfillment-messages');
    expect(answer.stores).toHaveLength(12);
    expect(answer.stores.every((store) => store.country === 'US')).toBe(true);
    expectNearestFirst(answer, 'R095', 'mi');
    const fifthAvenue = answer.stores[0];
    expect(fifthAvenue).toMatchObject({ name: 'Fifth Avenue', city: 'New York', state: 'NY' });
    expect(fifthAvenue?.parts.map((part) => part.partNumber)).toEqual(parts);
    for (const part of fifthAvenue?.parts ?? []) {
      expect(['available', 'unavailable']).toContain(part.status);
      expect(part.productTitle).toBe(getDisplayName('US', part.partNumber));
      expect(part.pickupQuote).toBe(
        part.status === 'available'
          ? 'Today at Apple Fifth Avenue'
          : 'Currently unavailable at Apple Fifth Avenue',
      );
    }
  });

  it('answers pickup-message for London under /uk/ in miles, matching Apple’s own distances', async () => {
    const parts = listPartNumbers('GB', 'iphone16').slice(0, 4);
    const answer = expectAnswer(
      await harness.ask(
        { countryCode: 'GB', location: 'w1b 2el', partNumbers: parts },
        { shape: 'pickup-message' },
      ),
    );
    expect(answer.endpoint).toBe('pickup-message');
    expect(new URL(answer.url).pathname).toBe('/uk/shop/retail/pickup-message');
    expect(answer.location).toBe('W1B 2EL');
    // Apple answers a location with its twelve nearest stores; the UK has more.
    expect(answer.stores.length).toBe(
      Math.min(12, STORE_SEEDS.filter((store) => store.country_locale === 'en_GB').length),
    );
    expectNearestFirst(answer, 'R092', 'mi');
    // Apple's captured answer for Regent Street lists Covent Garden at 0.81 mi.
    expect(answer.stores[1]).toMatchObject({
      storeNumber: 'R245',
      distance: { value: 0.81, unit: 'mi' },
    });
  });

  it('serves China under /cn/ on a non-Apple base, with distances in kilometres', async () => {
    const parts = listPartNumbers('CN', 'iphone17');
    const answer = expectAnswer(
      await harness.ask({ countryCode: 'CN', storeNumber: 'R320', partNumbers: parts }),
    );
    expect(new URL(answer.url).pathname).toBe('/cn/shop/fulfillment-messages');
    expect(answer.stores.every((store) => store.country === 'CN')).toBe(true);
    expectNearestFirst(answer, 'R320', 'km');
  });

  it('finds the store whose postal code is the searched location', async () => {
    const answer = expectAnswer(
      await harness.ask({
        countryCode: 'DE',
        location: findSeed('R045').postal_code ?? '',
        partNumbers: listPartNumbers('DE', 'iphone16'),
      }),
    );
    expect(answer.stores[0]?.storeNumber).toBe('R045');
    expectNearestFirst(answer, 'R045', 'km');
  });

  it('lists only the asked store when searchNearby is off', async () => {
    const answer = expectAnswer(
      await harness.ask({
        countryCode: 'US',
        storeNumber: 'R095',
        partNumbers: listPartNumbers('US', 'iphone17'),
        searchNearby: false,
      }),
    );
    expect(answer.stores.map((store) => store.storeNumber)).toEqual(['R095']);
  });

  it('answers an unknown store, or a store of another country, with Apple’s error message in both shapes', async () => {
    const parts = listPartNumbers('US', 'iphone17');
    for (const shape of ['fulfillment-messages', 'pickup-message'] as const) {
      for (const storeNumber of ['R999', 'R092']) {
        const result = await harness.ask(
          { countryCode: 'US', storeNumber, partNumbers: parts },
          { shape },
        );
        expect(result.ok).toBe(false);
        if (!result.ok)
          expect(result.failure).toMatchObject({
            kind: 'upstream_error',
            message: STORE_SEARCH_ERROR_MESSAGE,
          });
      }
    }
  });

  it('speaks Apple’s wire fields in both shapes: rank, list numbers and retailStore as the AE capture', async () => {
    const query = 'pl=true&mts.0=regular&parts.0=MJW64LL/A&searchNearby=true&store=R095';
    const full = (await (
      await fetch(`${harness.simulator.url}/shop/fulfillment-messages?${query}`, {
        headers: BROWSER_HEADERS,
      })
    ).json()) as {
      head: { status: string };
      body: {
        content: { pickupMessage: { stores: Record<string, unknown>[]; storesCount: string } };
      };
    };
    expect(full.head.status).toBe('200');
    const [first, second] = full.body.content.pickupMessage.stores;
    expect(first).toMatchObject({
      storeNumber: 'R095',
      rank: 1,
      storeListNumber: 1,
      storedistance: 0,
      storeDistanceWithUnit: '0.00 mi',
      storeDistanceVoText: '',
    });
    expect(second).toMatchObject({ rank: 2, storeListNumber: 2, storelistnumber: 2 });
    expect(first?.retailStore).toMatchObject({
      storeNumber: 'R095',
      timezone: 'America/New_York',
      distanceUnit: 'mi',
      dateStamp: '15-Jan-2026',
    });
    // The AE capture's storesCount is empty; the count is the length of `stores`.
    expect(full.body.content.pickupMessage.storesCount).toBe('');

    const single = (await (
      await fetch(`${harness.simulator.url}/shop/retail/pickup-message?${query}`, {
        headers: BROWSER_HEADERS,
      })
    ).json()) as {
      body: { stores: Record<string, unknown>[] };
    };
    expect(single.body.stores[0]).toMatchObject({
      storeNumber: 'R095',
      storeListNumber: 1,
      rank: 1,
      retailStore: { storeNumber: 'R095', latitude: expect.any(Number) as number },
      partsAvailability: {
        'MJW64LL/A': { messageTypes: { regular: { basePartNumber: 'MJW64' } } },
      },
    });
  });

  it('answers a browser User-Agent without a Referer, as 2026 checkers are answered, and 503 without one', async () => {
    const url = `${harness.simulator.url}/shop/retail/pickup-message?pl=true&mts.0=regular&parts.0=MJW64LL/A&store=R095`;
    const bare = await fetch(url);
    await bare.arrayBuffer();
    expect(bare.status).toBe(503);
    const script = await fetch(url, { headers: { 'User-Agent': 'curl/8.5' } });
    await script.arrayBuffer();
    expect(script.status).toBe(503);
    const noReferer = await fetch(url, {
      headers: { 'User-Agent': BROWSER_HEADERS['User-Agent'] ?? '' },
    });
    await noReferer.arrayBuffer();
    expect(noReferer.status).toBe(200);
    const withReferer = await fetch(url, {
      headers: {
        ...BROWSER_HEADERS,
        Referer: 'https://www.apple.com/shop/buy-iphone/iphone-18-pro',
      },
    });
    await withReferer.arrayBuffer();
    expect(withReferer.status).toBe(200);
  });

  it('answers paths outside the pickup endpoints and unknown country paths with a 404 page', async () => {
    for (const path of [
      '/xx/shop/fulfillment-messages?store=R095&parts.0=MJW64LL/A',
      '/shop/buy-iphone',
      '/',
    ]) {
      const response = await fetch(`${harness.simulator.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toContain('text/html');
    }
  });
});
