import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/index.ts';
import { ANSWERED_PARTS_LIMIT, STORE_SEARCH_ERROR_MESSAGE } from '#server/simulator/index.ts';
import {
  buildPickupQuery,
  findForeignPart,
  listCountryParts,
  startSimulatorHarness,
  type SimulatorHarness,
} from './support.ts';

// Which asked parts an answer reports, as Apple's 2025-2026 answers show
// (../shared/reference/apple/README.md, "What real 2025-2026 answers show").

type WirePart = { pickupDisplay: string; storePickEligible: boolean };
type WireStore = { storeNumber: string; partsAvailability: Record<string, WirePart> };
type WireList = { stores?: WireStore[]; errorMessage?: string };
type Answer = {
  head: { status: string };
  body: WireList & { content?: { pickupMessage?: WireList } };
};

// hk-pickup-message-empty-content-2025-10-06.json, byte for byte.
const EMPTY_CONTENT = '{"head":{"status":"200","data":{}},"body":{"content":{}}}';

function findRetiredPart(countryCode: string): string {
  const model = PRODUCT_MODEL_SEEDS.find(
    (candidate) =>
      candidate.country_code === countryCode &&
      typeof candidate.retired_on === 'string' &&
      !candidate.product_id.startsWith('applewatch'),
  );
  if (model === undefined) throw new Error(`No retired part in ${countryCode}`);
  return model.part_number;
}

function listWatchCases(countryCode: string): string[] {
  return PRODUCT_MODEL_SEEDS.filter(
    (model) => model.country_code === countryCode && model.product_id.startsWith('applewatch'),
  ).map((model) => model.part_number);
}

describe('which asked parts an answer reports', () => {
  let harness: SimulatorHarness;
  beforeAll(async () => {
    harness = await startSimulatorHarness({
      behaviour: { fulfillmentMessages: 'alive', blockAfterRequests: 0 },
    });
  });
  afterAll(async () => harness.close());

  async function askText(path: string, parts: readonly string[], fields: Record<string, string>) {
    const answer = await harness.getFrom(`${path}?${buildPickupQuery(parts, fields)}`);
    expect(answer.status).toBe(200);
    return answer.text;
  }

  async function ask(parts: readonly string[], fields: Record<string, string>): Promise<Answer> {
    return JSON.parse(await askText('/shop/retail/pickup-message', parts, fields)) as Answer;
  }

  function listReported(answer: Answer): string[][] {
    return (answer.body.stores ?? []).map((store) => Object.keys(store.partsAvailability));
  }

  it('leaves a part the country does not sell out of every store, answering the parts it sells', async () => {
    const parts = listCountryParts('US', 4);
    const foreign = findForeignPart('GB', 'US');
    const places: Record<string, string>[] = [{ location: '10153' }, { store: 'R095' }];
    for (const fields of places) {
      const answer = await ask([parts[0], foreign, ...parts.slice(1)], fields);
      expect(answer.body.errorMessage).toBeUndefined();
      const reported = listReported(answer);
      expect(reported.length).toBeGreaterThan(0);
      expect(reported.every((keys) => keys.join() === parts.join())).toBe(true);
    }
  });

  it('answers Apple’s empty-content body, byte for byte, when no part asked is sold there', async () => {
    const foreign = [findForeignPart('GB', 'US'), 'MZZZ9LL/A'];
    expect(await askText('/shop/retail/pickup-message', foreign, { store: 'R095' })).toBe(
      EMPTY_CONTENT,
    );
    expect(await askText('/shop/retail/pickup-message', [], { location: '10153' })).toBe(
      EMPTY_CONTENT,
    );
    expect(
      await askText('/shop/fulfillment-messages', foreign, { searchNearby: 'true', store: 'R095' }),
    ).toBe(EMPTY_CONTENT);
  });

  it('looks at the parts before the place: only unsold parts and an unknown location answer the empty body', async () => {
    expect(
      await askText('/shop/retail/pickup-message', [findForeignPart('GB', 'US')], {
        location: 'Atlantis',
      }),
    ).toBe(EMPTY_CONTENT);
    const unknownPlace = await ask(listCountryParts('US', 1), { location: 'Atlantis' });
    expect(unknownPlace.body.errorMessage).toBe(STORE_SEARCH_ERROR_MESSAGE);
  });

  it('answers a retired part ineligible at every store, still pick-eligible, unless a test overrides it', async () => {
    const retired = findRetiredPart('US');
    const sold = listCountryParts('US', 1)[0];
    const answer = await ask([sold, retired], { location: '10153' });
    const entries = (answer.body.stores ?? []).map((store) => store.partsAvailability[retired]);
    expect(entries).toHaveLength(12);
    expect(entries.every((entry) => entry?.pickupDisplay === 'ineligible')).toBe(true);
    expect(entries.every((entry) => entry?.storePickEligible === true)).toBe(true);
    expect(
      (answer.body.stores ?? []).every((store) =>
        ['available', 'unavailable'].includes(store.partsAvailability[sold]?.pickupDisplay ?? ''),
      ),
    ).toBe(true);

    harness.simulator.setStatus('R095', retired, 'available');
    const overridden = await ask([retired], { store: 'R095' });
    expect(overridden.body.stores?.[0]?.partsAvailability[retired]?.pickupDisplay).toBe(
      'available',
    );
    await harness.control('DELETE', '/_sim/stock');
  });

  it('answers the first 20 distinct parts of a 25-part request and leaves the last 5 out', async () => {
    const parts = listCountryParts('US', 25);
    expect(ANSWERED_PARTS_LIMIT).toBe(20);
    const answer = await ask(parts, { location: '10153' });
    const reported = listReported(answer);
    expect(reported).toHaveLength(12);
    expect(reported.every((keys) => keys.join() === parts.slice(0, 20).join())).toBe(true);

    // Duplicates are dropped before counting: 21 entries naming 20 parts answer all 20.
    const withDuplicate = [...parts.slice(0, 10), parts[0], ...parts.slice(10, 20)];
    const deduplicated = listReported(await ask(withDuplicate, { store: 'R095' }));
    expect(deduplicated).toEqual([parts.slice(0, 20)]);

    // Twenty unsold parts and a sold 21st: nothing answerable, so the empty body.
    const foreign = listCountryParts('GB', 40).filter(
      (part) => !listCountryParts('US', 10_000).includes(part),
    );
    expect(foreign.length).toBeGreaterThanOrEqual(20);
    expect(
      await askText('/shop/retail/pickup-message', [...foreign.slice(0, 20), parts[0]], {
        store: 'R095',
      }),
    ).toBe(EMPTY_CONTENT);
  });

  it('answers an Apple Watch case asked alone with the empty body, and answers it beside other parts', async () => {
    const cases = listWatchCases('US');
    expect(cases.length).toBeGreaterThanOrEqual(2);
    expect(await askText('/shop/retail/pickup-message', [cases[0]], { store: 'R095' })).toBe(
      EMPTY_CONTENT,
    );
    expect(await askText('/shop/retail/pickup-message', cases, { location: '10153' })).toBe(
      EMPTY_CONTENT,
    );
    const phone = listCountryParts('US', 1)[0];
    const mixed = await ask([cases[0], phone], { store: 'R095' });
    expect(listReported(mixed)).toEqual([[cases[0], phone]]);
  });
});
