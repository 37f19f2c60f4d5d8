import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_SIMULATOR_BEHAVIOUR } from '#server/simulator/index.ts';
import { listPartNumbers, startSimulatorHarness, type SimulatorHarness } from './support.ts';

describe('upstream simulator control API', () => {
  let harness: SimulatorHarness;
  const [partNumber = ''] = listPartNumbers('US', 'iphone16pro');
  const request = { countryCode: 'US', storeNumber: 'R095', partNumbers: [partNumber] };

  beforeAll(async () => {
    harness = await startSimulatorHarness({ behaviour: LEGACY_SIMULATOR_BEHAVIOUR });
  });
  afterAll(async () => harness.close());

  async function readStatus(storeNumber: string): Promise<string | undefined> {
    const result = await harness.ask(request);
    if (!result.ok) throw new Error(result.failure.message);
    return result.value.stores.find((store) => store.storeNumber === storeNumber)?.parts[0]?.status;
  }

  it('makes a POST /_sim/stock flip visible to the very next request, for the store and as a neighbour', async () => {
    for (const status of ['available', 'unavailable', 'ineligible', 'available'] as const) {
      const response = await harness.control('POST', '/_sim/stock', {
        store_id: 'r032',
        part_number: partNumber,
        status,
      });
      expect(response).toEqual({
        status: 200,
        json: { store_id: 'R032', part_number: partNumber, country_code: 'US', status },
      });
      // R032 is a neighbour in R095's answer: one request reports it.
      expect(await readStatus('R032')).toBe(status);
    }
  });

  it('keeps an override across stock buckets until it is changed or cleared', async () => {
    await harness.control('POST', '/_sim/stock', {
      store_id: 'R095',
      part_number: partNumber,
      status: 'available',
    });
    for (let bucket = 0; bucket < 12; bucket += 1) {
      harness.advanceClock(300_000);
      expect(await readStatus('R095')).toBe('available');
    }
    const state = await harness.control('GET', '/_sim/state');
    expect(state.json).toMatchObject({
      overrides: expect.arrayContaining([
        { store_id: 'R095', part_number: partNumber, status: 'available' },
      ]) as unknown,
    });
    expect(await harness.control('DELETE', '/_sim/stock')).toEqual({
      status: 200,
      json: { cleared: 2 },
    });
    expect((await harness.control('GET', '/_sim/state')).json).toMatchObject({ overrides: [] });
  });

  it('sets a status from the in-process handle, and refuses unknown stores and parts there', async () => {
    harness.simulator.setStatus('R095', partNumber, 'ineligible');
    expect(await readStatus('R095')).toBe('ineligible');
    expect(() => harness.simulator.setStatus('R999', partNumber, 'available')).toThrow(RangeError);
    expect(() => harness.simulator.setStatus('R092', partNumber, 'available')).toThrow(RangeError);
  });

  it.each([
    [{ part_number: 'MTLV3LL/A', status: 'available' }, 'store_id'],
    [{ store_id: 'Fifth Avenue', part_number: 'MTLV3LL/A', status: 'available' }, 'store_id'],
    [{ store_id: 'R095', status: 'available' }, 'part_number'],
    [{ store_id: 'R095', part_number: '', status: 'available' }, 'part_number'],
    [{ store_id: 'R095', part_number: 'MTLV3LL/A', status: 'in stock' }, 'status'],
    [[1, 2], 'body'],
  ])('answers POST /_sim/stock %j with 400 naming %s', async (body, field) => {
    const response = await harness.control('POST', '/_sim/stock', body);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ reason: 'invalid_input', field });
    expect((response.json as { message: string }).message).toContain(field);
  });

  it('answers an unknown store or a part not sold in the store’s country with 404 naming the field', async () => {
    const unknownStore = await harness.control('POST', '/_sim/stock', {
      store_id: 'R999',
      part_number: partNumber,
      status: 'available',
    });
    expect(unknownStore).toMatchObject({
      status: 404,
      json: { reason: 'not_found', field: 'store_id' },
    });
    const foreignPart = await harness.control('POST', '/_sim/stock', {
      store_id: 'R092',
      part_number: partNumber,
      status: 'available',
    });
    expect(foreignPart).toMatchObject({
      status: 404,
      json: { reason: 'not_found', field: 'part_number' },
    });
  });

  it.each([
    [{ seconds: 10 }, 'kind'],
    [{ kind: '500', seconds: 10 }, 'kind'],
    [{ kind: '541' }, 'seconds'],
    [{ kind: '541', seconds: 0 }, 'seconds'],
    [{ kind: '541', seconds: 86_401 }, 'seconds'],
    [{ kind: '541', seconds: 10, retry_after_seconds: 1.5 }, 'retry_after_seconds'],
    ['not json', 'body'],
  ])('answers POST /_sim/fault %j with 400 naming %s', async (body, field) => {
    const response = await harness.control('POST', '/_sim/fault', body);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ reason: 'invalid_input', field });
  });

  it('refuses bodies over 4 KiB', async () => {
    const response = await harness.control('POST', '/_sim/stock', {
      store_id: 'R095',
      part_number: 'x'.repeat(5000),
      status: 'available',
    });
    expect(response).toMatchObject({
      status: 413,
      json: { reason: 'invalid_input', field: 'body' },
    });
  });

  it('counts every pickup request served, for the benchmark', async () => {
    const before = (await harness.control('GET', '/_sim/requests')).json as { count: number };
    await harness.ask(request);
    await harness.ask(request, { shape: 'pickup-message' });
    const after = (await harness.control('GET', '/_sim/requests')).json as {
      count: number;
      by_address: Record<string, { requests: number }>;
    };
    expect(after.count).toBe(before.count + 2);
    // Every request of this file came from the default route.
    expect(Object.keys(after.by_address)).toEqual(['127.0.0.1']);
    expect(after.by_address['127.0.0.1']?.requests).toBe(after.count);
    const state = (await harness.control('GET', '/_sim/state')).json as {
      requests: Record<string, number>;
    };
    expect(state.requests.total).toBe(before.count + 2);
    expect(state.requests.pickup_message).toBeGreaterThanOrEqual(1);
  });
});
