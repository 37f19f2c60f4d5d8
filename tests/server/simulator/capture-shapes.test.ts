import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareShapes } from './shape-drift.ts';
import {
  buildPickupQuery,
  findForeignPart,
  listPartNumbers,
  startSimulatorHarness,
  type SimulatorHarness,
} from './support.ts';

// The simulator is our picture of Apple: each of its pickup answers must have the shape of
// the answer Apple really gave (../shared/reference/apple/captures): the same keys, nesting
// and value types. A difference either way is drift, and the simulator is the bug.

const CAPTURES = path.resolve(process.cwd(), '../shared/reference/apple/captures');
const HAS_CAPTURES = existsSync(CAPTURES);

const AE_PICKUP = 'ae-pickup-message-abu-dhabi-2026-09-21-mjx94.json';
const HK_EMPTY = 'hk-pickup-message-empty-content-2025-10-06.json';
const HK_FULFILLMENT = 'hk-fulfillment-messages-no-location-2025-10-06.json';

// Keys the AE capture cannot show because the UAE lacks what they describe.
const COUNTRY_KEYS: Readonly<Record<string, string>> = {
  'body.stores[].state':
    'stores of countries with states carry `state` (reference README, "Apple as it is in late 2026": pickup-message stores carry storeNumber, storeName, city, state, ...)',
};

function readCapture(name: string): { text: string; json: unknown } {
  // Some captures end with a newline the answer did not carry.
  const text = readFileSync(path.join(CAPTURES, name), 'utf8').trimEnd();
  return { text, json: JSON.parse(text) as unknown };
}

function listPickupCaptures(): string[] {
  return readdirSync(CAPTURES)
    .filter((name) => /(pickup|fulfillment)-.*\.json$/.test(name))
    .filter((name) => !name.endsWith('.verification.json'))
    .sort();
}

describe.skipIf(!HAS_CAPTURES)(
  `simulator answers against Apple’s captured answers${HAS_CAPTURES ? '' : ` (skipped: ${CAPTURES} is absent)`}`,
  () => {
    let harness: SimulatorHarness;
    beforeAll(async () => {
      harness = await startSimulatorHarness({
        behaviour: { fulfillmentMessages: 'alive', blockAfterRequests: 0 },
      });
    });
    afterAll(async () => harness.close());

    async function getText(pathAndQuery: string): Promise<string> {
      const answer = await harness.getFrom(pathAndQuery);
      expect(answer.status, pathAndQuery).toBe(200);
      return answer.text;
    }

    async function getJson(pathAndQuery: string): Promise<unknown> {
      return JSON.parse(await getText(pathAndQuery)) as unknown;
    }

    it('compares every pickup and fulfillment capture of the reference', () => {
      expect(listPickupCaptures()).toEqual([AE_PICKUP, HK_FULFILLMENT, HK_EMPTY].sort());
    });

    it('answers pickup-message for a location in the AE capture’s shape, whatever each part reads', async () => {
      const ae = readCapture(AE_PICKUP).json;
      // Japan, like the UAE, has no states; one part available, one as scheduled, one retired.
      const [available, scheduled] = listPartNumbers('JP', 'iphone17');
      const [retired] = listPartNumbers('JP', 'iphone16promax');
      harness.simulator.setStatus('R119', available, 'available');
      const query = buildPickupQuery([available, scheduled, retired], {
        location: 'Shibuya-ku',
      });
      const japan = await getJson(`/jp/shop/retail/pickup-message?${query}`);
      expect(compareShapes([ae], [japan])).toEqual([]);

      const postalCode = await getJson(
        `/shop/retail/pickup-message?${buildPickupQuery(listPartNumbers('US', 'iphone17'), { location: '10153' })}`,
      );
      const oneStore = await getJson(
        `/sg/shop/retail/pickup-message?${buildPickupQuery(listPartNumbers('SG', 'iphoneair'), { store: 'R669' })}`,
      );
      expect(
        compareShapes([ae], [postalCode, oneStore], { allowedExtraKeys: COUNTRY_KEYS }),
      ).toEqual([]);
    });

    it('answers the HK empty-content capture byte for byte when nothing asked is sellable', async () => {
      const { text } = readCapture(HK_EMPTY);
      const foreign = findForeignPart('GB', 'US');
      expect(
        await getText(
          `/shop/retail/pickup-message?${buildPickupQuery([foreign], { store: 'R095' })}`,
        ),
      ).toBe(text);
      expect(
        await getText(
          `/shop/retail/pickup-message?${buildPickupQuery([foreign], { location: '10153' })}`,
        ),
      ).toBe(text);
    });

    it('answers fulfillment-messages without a location in the HK capture’s shape', async () => {
      const hk = readCapture(HK_FULFILLMENT).json;
      // The capture's own request, with a part the simulator sells.
      const query = `fae=true&little=false&parts.0=${encodeURIComponent(listPartNumbers('US', 'iphone17')[0])}&mts.0=regular&mts.1=sticky&fts=true`;
      const simulated = await getJson(`/shop/fulfillment-messages?${query}`);
      expect(compareShapes([hk], [simulated])).toEqual([]);
    });

    it('answers fulfillment-messages with stores as the two captures put together: AE’s stores, HK’s envelope and delivery', async () => {
      const ae = readCapture(AE_PICKUP).json as { body: unknown };
      const hk = readCapture(HK_FULFILLMENT).json as {
        head: unknown;
        body: { content: { deliveryMessage: unknown }; footnotes: unknown };
      };
      const expected = {
        head: hk.head,
        body: {
          content: { pickupMessage: ae.body, deliveryMessage: hk.body.content.deliveryMessage },
          footnotes: hk.body.footnotes,
        },
      };
      const query = buildPickupQuery(listPartNumbers('US', 'iphone17').slice(0, 3), {
        'mts.1': 'sticky',
        searchNearby: 'true',
        store: 'R095',
      });
      const simulated = await getJson(`/shop/fulfillment-messages?${query}`);
      const allowed = {
        'body.content.pickupMessage.stores[].state': COUNTRY_KEYS['body.stores[].state'],
        'body.content.pickupMessage.availabilityStores':
          'fulfillment-messages lists the answered stores (reference README, "The pickup availability endpoint")',
      };
      expect(compareShapes([expected], [simulated], { allowedExtraKeys: allowed })).toEqual([]);
    });
  },
);

describe.skipIf(!HAS_CAPTURES)('the structural comparison', () => {
  it('reports a missing key, an invented key, another type and a null where Apple sends a value', () => {
    const ae = readCapture(AE_PICKUP).json as { body: { stores: Record<string, unknown>[] } };
    const drifted = structuredClone(ae);
    const [store] = drifted.body.stores;
    delete store.pickupOptionsDetails;
    store.directionsUrl = 'http://www.apple.com/ae/retail/almaryahisland';
    store.storedistance = '9.44';
    store.storeName = null;
    expect(compareShapes([ae], [drifted]).sort()).toEqual(
      [
        'body.stores[].directionsUrl: invented (the capture has no such key)',
        'body.stores[].pickupOptionsDetails: missing (the capture has it)',
        'body.stores[].storeName: null where the capture has string',
        'body.stores[].storedistance: string where the capture has number',
      ].sort(),
    );
    expect(compareShapes([ae], [ae])).toEqual([]);
  });
});

const STORE_LIST = path.resolve(process.cwd(), '../shared/reference/apple/store-list.json');
const HAS_STORE_LIST = existsSync(STORE_LIST);

describe.skipIf(!HAS_STORE_LIST)(
  `the simulator’s store directory against Apple’s${HAS_STORE_LIST ? '' : ` (skipped: ${STORE_LIST} is absent)`}`,
  () => {
    let harness: SimulatorHarness;
    beforeAll(async () => {
      harness = await startSimulatorHarness();
    });
    afterAll(async () => harness.close());

    it('answers rsp-web/store-list in the shape of the captured en_US directory', async () => {
      const capture = JSON.parse(readFileSync(STORE_LIST, 'utf8')) as unknown;
      const answer = await harness.getFrom('/rsp-web/store-list?locale=en_US');
      expect(answer.status).toBe(200);
      expect(compareShapes([capture], [JSON.parse(answer.text) as unknown])).toEqual([]);
    });
  },
);
