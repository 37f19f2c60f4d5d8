import { describe, expect, it } from 'vitest';
import { parsePickupDocument } from '#shared/upstream/parse-response.ts';
import { parseDistanceText } from '#shared/upstream/parse-stores.ts';
import type { ParsedPickup, StoreAvailability } from '#shared/upstream/types.ts';
import { readFixtureJson } from './support.ts';

const US_PARTS = ['MQ0E3LL/A', 'MQ1D3LL/A', 'MQ0N3LL/A', 'MQ163LL/A'];
const GB_PARTS = ['MQ0G3ZD/A', 'MQ1F3ZD/A', 'MQ9U3ZD/A'];

type Json = Record<string, unknown>;

function parseOk(document: unknown, requestedParts: readonly string[] = []): ParsedPickup {
  const result = parsePickupDocument(document, { requestedParts, defaultUnit: 'mi' });
  if (!result.ok) throw new Error(`expected stores, got ${result.failure.kind}`);
  return result.value;
}

function findStore(parsed: ParsedPickup, storeNumber: string): StoreAvailability {
  const store = parsed.stores.find((candidate) => candidate.storeNumber === storeNumber);
  if (!store) throw new Error(`store ${storeNumber} missing`);
  return store;
}

function statusOf(parsed: ParsedPickup, storeNumber: string, partNumber: string) {
  return findStore(parsed, storeNumber).parts.find((part) => part.partNumber === partNumber)
    ?.status;
}

// Reaches into the US fixture's raw stores for targeted corruption.
function usRawStores(document: unknown): Json[] {
  const body = (document as { body: { content: { pickupMessage: { stores: Json[] } } } }).body;
  return body.content.pickupMessage.stores;
}

function rawParts(store: Json | undefined): Json {
  return (store as { partsAvailability: Json }).partsAvailability;
}

describe('parsePickupDocument, fulfillment-messages shape (body.content.pickupMessage.stores)', () => {
  const parsed = parseOk(readFixtureJson('fulfillment-messages-us-r072.json'), US_PARTS);

  it('lists all twelve stores nearest first with the searched store on top', () => {
    expect(parsed.stores).toHaveLength(12);
    expect(parsed.stores[0]?.storeNumber).toBe('R072');
    const distances = parsed.stores.map((store) => store.distance?.value ?? -1);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(parsed.location).toBe('98105');
    expect(parsed.skippedStoreCount).toBe(0);
  });

  it('reads store identity, distance with unit and coordinates', () => {
    expect(findStore(parsed, 'R003')).toMatchObject({
      name: 'Bellevue Square',
      city: 'Bellevue',
      state: 'WA',
      country: 'US',
      distance: { value: 5.48, unit: 'mi' },
      latitude: 47.616327,
      longitude: -122.2042,
    });
  });

  it('reads every requested part per store with status, quote and title', () => {
    const village = findStore(parsed, 'R072');
    expect(village.parts.map((part) => part.partNumber)).toEqual(US_PARTS);
    expect(village.parts[2]).toEqual({
      partNumber: 'MQ0N3LL/A',
      status: 'available',
      pickupQuote: 'Today at Apple University Village',
      productTitle: 'iPhone 14 Pro 256GB Space Black',
      isPickEligible: true,
    });
    expect(village.parts[0]).toMatchObject({
      status: 'unavailable',
      pickupQuote: 'Currently unavailable at Apple University Village',
      productTitle: 'iPhone 14 Pro 128GB Deep Purple',
    });
  });

  it('maps available, unavailable and ineligible across the batch', () => {
    expect(statusOf(parsed, 'R003', 'MQ0E3LL/A')).toBe('available');
    expect(statusOf(parsed, 'R106', 'MQ1D3LL/A')).toBe('available');
    expect(statusOf(parsed, 'R100', 'MQ163LL/A')).toBe('unavailable');
    expect(findStore(parsed, 'R134').parts.every((part) => part.status === 'ineligible')).toBe(
      true,
    );
    expect(findStore(parsed, 'R134').parts[0]?.isPickEligible).toBe(false);
  });
});

describe('parsePickupDocument, pickup-message shape (body.stores)', () => {
  const parsed = parseOk(readFixtureJson('pickup-message-gb-r092.json'), GB_PARTS);

  it('reads stores listed directly on body, with no state and distances in miles', () => {
    expect(parsed.stores.map((store) => store.storeNumber)).toEqual([
      'R092',
      'R245',
      'R329',
      'R226',
      'R163',
      'R410',
      'R227',
      'R496',
    ]);
    expect(findStore(parsed, 'R227')).toMatchObject({
      name: 'Bentall Centre',
      city: 'Kingston upon Thames',
      state: null,
      country: 'GB',
      distance: { value: 9.98, unit: 'mi' },
    });
    expect(parsed.location).toBe('W1B 2EL');
  });

  it('reads the statuses of every part at every store', () => {
    expect(statusOf(parsed, 'R092', 'MQ0G3ZD/A')).toBe('available');
    expect(statusOf(parsed, 'R245', 'MQ9U3ZD/A')).toBe('available');
    expect(statusOf(parsed, 'R163', 'MQ1F3ZD/A')).toBe('ineligible');
    expect(statusOf(parsed, 'R496', 'MQ0G3ZD/A')).toBe('unavailable');
  });

  it('reads the older answer that carries quote and title directly on the part', () => {
    const legacy = parseOk(readFixtureJson('pickup-message-legacy-flat-parts.json'));
    expect(findStore(legacy, 'R410').parts).toEqual([
      expect.objectContaining({ partNumber: 'MQAC2B/A', status: 'unavailable' }),
      {
        partNumber: 'MQA92B/A',
        status: 'available',
        pickupQuote: 'Tomorrow at Apple Stratford City',
        productTitle: 'iPhone X 256GB Silver',
        isPickEligible: true,
      },
    ]);
  });
});

describe('parsePickupDocument, other countries', () => {
  it('reads kilometres from Chinese distance text and Chinese titles', () => {
    const parsed = parseOk(readFixtureJson('fulfillment-messages-cn-beijing.json'), [
      'MQ0D3CH/A',
      'MQ083CH/A',
    ]);
    expect(parsed.stores[0]).toMatchObject({
      storeNumber: 'R320',
      name: '三里屯',
      country: 'CN',
      distance: { value: 1.72, unit: 'km' },
    });
    expect(statusOf(parsed, 'R479', 'MQ0D3CH/A')).toBe('available');
    expect(findStore(parsed, 'R320').parts[1]?.productTitle).toBe('iPhone 14 Pro 128GB 深空黑色');
  });
});

describe('parsePickupDocument tolerance', () => {
  it('turns one malformed part into unknown and leaves every other part and store intact', () => {
    const document = readFixtureJson('fulfillment-messages-us-r072.json');
    const stores = usRawStores(document);
    rawParts(stores[0])['MQ0N3LL/A'] = 'oops';
    rawParts(stores[1])['MQ0E3LL/A'] = null;
    const pristine = parseOk(readFixtureJson('fulfillment-messages-us-r072.json'), US_PARTS);
    const parsed = parseOk(document, US_PARTS);

    expect(statusOf(parsed, 'R072', 'MQ0N3LL/A')).toBe('unknown');
    expect(statusOf(parsed, 'R003', 'MQ0E3LL/A')).toBe('unknown');
    const untouched = (result: ParsedPickup) =>
      result.stores.flatMap((store) =>
        store.parts
          .filter(
            (part) =>
              !(store.storeNumber === 'R072' && part.partNumber === 'MQ0N3LL/A') &&
              !(store.storeNumber === 'R003' && part.partNumber === 'MQ0E3LL/A'),
          )
          .map((part) => `${store.storeNumber}:${part.partNumber}:${part.status}`),
      );
    expect(untouched(parsed)).toEqual(untouched(pristine));
  });

  it('maps an unrecognised pickupDisplay to unknown but keeps the title', () => {
    const document = readFixtureJson('fulfillment-messages-us-r072.json');
    rawParts(usRawStores(document)[0])['MQ0E3LL/A'] = {
      ...(rawParts(usRawStores(document)[0])['MQ0E3LL/A'] as Json),
      pickupDisplay: 'comingsoon',
    };
    const part = findStore(parseOk(document, US_PARTS), 'R072').parts[0];
    expect(part).toMatchObject({
      status: 'unknown',
      productTitle: 'iPhone 14 Pro 128GB Deep Purple',
    });
  });

  it('reports a requested part the store omitted as unknown, never unavailable', () => {
    const document = readFixtureJson('fulfillment-messages-us-r072.json');
    delete rawParts(usRawStores(document)[2])['MQ163LL/A'];
    const store = parseOk(document, US_PARTS).stores[2];
    expect(store?.parts.find((part) => part.partNumber === 'MQ163LL/A')).toEqual({
      partNumber: 'MQ163LL/A',
      status: 'unknown',
      pickupQuote: null,
      productTitle: null,
      isPickEligible: null,
    });
  });

  it('skips a store with no store number and counts it, keeping the rest', () => {
    const document = readFixtureJson('fulfillment-messages-us-r072.json');
    const stores = usRawStores(document);
    const broken = stores[5];
    delete broken.storeNumber;
    delete (broken.retailStore as Json).storeNumber;
    stores[6] = 42 as unknown as Json;
    const parsed = parseOk(document, US_PARTS);
    expect(parsed.stores).toHaveLength(10);
    expect(parsed.skippedStoreCount).toBe(2);
  });

  it('falls back to retailStore for fields missing at the top level and ignores odd types', () => {
    const document = readFixtureJson('fulfillment-messages-us-r072.json');
    const store = usRawStores(document)[1];
    delete store.storeName;
    delete store.storelatitude;
    store.storedistance = 'far';
    store.storeDistanceWithUnit = 12;
    const parsed = findStore(parseOk(document, US_PARTS), 'R003');
    expect(parsed).toMatchObject({
      name: 'Bellevue Square',
      latitude: 47.616327,
      distance: { value: 5.48, unit: 'mi' },
    });
  });

  it('accepts an empty store list as an answer with no stores', () => {
    const parsed = parseOk({ head: { status: '200', data: {} }, body: { stores: [] } });
    expect(parsed.stores).toEqual([]);
  });
});

describe('parsePickupDocument, answers by meaning', () => {
  it('reads empty content as nothing sellable there: no fault, no cool-down', () => {
    // The 57 bytes pickup-message answers when no part asked is sellable (the HK capture).
    const result = parsePickupDocument(
      JSON.parse('{"head":{"status":"200","data":{}},"body":{"content":{}}}') as unknown,
    );
    expect(result.ok ? 'stores' : result.failure).toMatchObject({
      kind: 'nothing_sellable',
      coolDownSeconds: 0,
    });
    expect(result.ok ? '' : result.failure.message).toMatch(/nothing asked is sellable/);
  });

  it('still calls content without stores malformed when it holds something else', () => {
    const result = parsePickupDocument({
      head: { status: '200' },
      body: { content: { deliveryMessage: {} } },
    });
    expect(result.ok ? 'stores' : result.failure.kind).toBe('malformed');
  });

  it('reads what filing a store needs from retailStore when the store has no address block, and cleans names', () => {
    const parsed = parseOk({
      body: {
        stores: [
          {
            storeNumber: 'R733',
            storeName: 'Central\u00a0World',
            retailStore: {
              timezone: 'Asia/Bangkok',
              phoneNumber: '1800 019 341',
              address: {
                street: '999/9 Rama I Rd',
                street2: null,
                city: 'Bangkok',
                postalCode: '10330',
              },
            },
          },
        ],
      },
    });
    expect(parsed.stores[0]).toMatchObject({
      name: 'Central World',
      city: 'Bangkok',
      facts: {
        timezone: 'Asia/Bangkok',
        street: '999/9 Rama I Rd',
        street2: null,
        postalCode: '10330',
        phone: '1800 019 341',
      },
    });
  });
});

describe('parseDistanceText', () => {
  it('reads decimal points, decimal commas and thousands separators', () => {
    expect(parseDistanceText('3.39 mi')).toBe(3.39);
    expect(parseDistanceText('5,2 km')).toBe(5.2);
    expect(parseDistanceText('1,204.5 mi')).toBe(1204.5);
    expect(parseDistanceText('1,204 km')).toBe(1204);
    expect(parseDistanceText('距离未知')).toBeUndefined();
  });
});
