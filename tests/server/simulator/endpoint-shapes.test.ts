import { afterEach, describe, expect, it } from 'vitest';
import { DEAD_ENDPOINT_PAGE_BYTES } from '#server/simulator/faults.ts';
import {
  buildPickupQuery,
  listCountryParts,
  startSimulatorHarness,
  type SimulatorHarness,
} from './support.ts';

// Which endpoint answers: pickup-message always, fulfillment-messages only when told to be alive.

const PARTS = listCountryParts('US', 2);
const STORE_QUERY = buildPickupQuery(PARTS, { searchNearby: 'true', store: 'R095' });

type PickupMessageAnswer = {
  head: { status: string };
  body: { stores: { storeNumber: string }[] };
};
type FulfillmentAnswer = {
  head: { status: string };
  body: { content: { pickupMessage: { stores: { storeNumber: string }[] } } };
};

describe('endpoint shapes', () => {
  let harness: SimulatorHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('answers fulfillment-messages with HTTP 541 and a large Page Not Found page by default, whatever is asked', async () => {
    harness = await startSimulatorHarness();
    for (const path of [
      `/shop/fulfillment-messages?${STORE_QUERY}`,
      `/uk/shop/fulfillment-messages?${buildPickupQuery(listCountryParts('GB', 1), { location: 'W1B 2EL' })}`,
      '/shop/fulfillment-messages',
    ]) {
      const answer = await harness.getFrom(path);
      expect(answer.status, path).toBe(541);
      expect(answer.contentType).toContain('text/html');
      expect(answer.text).toContain('<title>Page Not Found - Apple</title>');
      expect(answer.text.length).toBeGreaterThanOrEqual(DEAD_ENDPOINT_PAGE_BYTES);
      expect(answer.text.length).toBeLessThan(DEAD_ENDPOINT_PAGE_BYTES + 2_000);
    }
    const counts = harness.simulator.getAddressCounts().get('127.0.0.1');
    expect(counts).toMatchObject({ requests: 3, answered541: 3, blockedAnswers: 0 });
  });

  it('answers pickup-message with 200 JSON and the stores on body.stores', async () => {
    harness = await startSimulatorHarness();
    const answer = await harness.getFrom(`/shop/retail/pickup-message?${STORE_QUERY}`);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toContain('application/json');
    const json = JSON.parse(answer.text) as PickupMessageAnswer;
    expect(json.head.status).toBe('200');
    expect(json.body.stores.map((store) => store.storeNumber)).toEqual(['R095']);
    expect(json.body).not.toHaveProperty('content');
  });

  it('brings fulfillment-messages back to life with fulfillmentMessages "alive", twelve stores for store + searchNearby', async () => {
    harness = await startSimulatorHarness({ behaviour: { fulfillmentMessages: 'alive' } });
    const answer = await harness.getFrom(`/shop/fulfillment-messages?${STORE_QUERY}`);
    expect(answer.status).toBe(200);
    const json = JSON.parse(answer.text) as FulfillmentAnswer;
    const stores = json.body.content.pickupMessage.stores;
    expect(stores).toHaveLength(12);
    expect(stores[0]?.storeNumber).toBe('R095');
    // pickup-message keeps today's rule on the same simulator: one store for store=.
    const single = JSON.parse(
      (await harness.getFrom(`/shop/retail/pickup-message?${STORE_QUERY}`)).text,
    ) as PickupMessageAnswer;
    expect(single.body.stores).toHaveLength(1);
  });

  it('reports which endpoint is dead in /_sim/state and counts both shapes', async () => {
    harness = await startSimulatorHarness();
    await harness.getFrom(`/shop/fulfillment-messages?${STORE_QUERY}`);
    await harness.getFrom(`/shop/retail/pickup-message?${STORE_QUERY}`);
    await harness.getFrom(`/shop/retail/pickup-message?${STORE_QUERY}`);
    const requests = (await harness.control('GET', '/_sim/requests')).json;
    expect(requests).toMatchObject({
      count: 3,
      fulfillment_messages: 1,
      pickup_message: 2,
      answered_541: 1,
    });
    const state = (await harness.control('GET', '/_sim/state')).json as {
      settings: { fulfillment_messages: string };
    };
    expect(state.settings.fulfillment_messages).toBe('dead');
  });

  it('refuses settings that cannot mean anything, naming the option', async () => {
    await expect(startSimulatorHarness({ behaviour: { blockAfterRequests: -1 } })).rejects.toThrow(
      /blockAfterRequests/,
    );
    await expect(startSimulatorHarness({ behaviour: { blockSeconds: 0 } })).rejects.toThrow(
      /blockSeconds/,
    );
    await expect(
      startSimulatorHarness({
        behaviour: { fulfillmentMessages: 'maybe' as unknown as 'dead' },
      }),
    ).rejects.toThrow(/fulfillmentMessages/);
  });
});
