import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorWatchStatusSchema, publicWatchStatusSchema } from '#shared/api/watch.ts';
import { syncModelsFromBuyPages } from '#server/catalog/sync-models.ts';
import { createMetrics } from '#server/ops/metrics.ts';
import { startApiHarness, type ApiHarness } from '#tests/helpers/api-harness.ts';
import { startSimulatorHarness, type SimulatorHarness } from '#tests/server/simulator/support.ts';

describe('GET /v2/status reports the last catalog sync', () => {
  let api: ApiHarness;
  let simulator: SimulatorHarness;
  /** The API with METRICS_TOKEN: the sync's origin and errors are the operator's to read. */
  let withToken: FastifyInstance;

  beforeAll(async () => {
    api = await startApiHarness();
    simulator = await startSimulatorHarness();
    withToken = await api.buildVariant({
      metrics: { registry: createMetrics(api.testDb.db), token: 'operator-token' },
    });
  }, 60_000);
  afterAll(async () => {
    await withToken?.close();
    await simulator?.close();
    await api?.close();
  });

  async function readStatus() {
    const response = await withToken.inject({
      method: 'GET',
      url: '/v2/status',
      headers: { authorization: 'Bearer operator-token' },
    });
    expect(response.statusCode).toBe(200);
    return operatorWatchStatusSchema.parse(response.json());
  }

  it('says nothing before the first sync', async () => {
    expect((await readStatus()).catalog_sync).toBeNull();
  });

  it('shows when the last sync ran and what it changed', async () => {
    await simulator.control('POST', '/_sim/buy-page', {
      country: 'GB',
      part_number: 'MK2D4QN/A',
      listed: false,
    });
    await syncModelsFromBuyPages(api.testDb.db, {
      baseUrl: simulator.simulator.url,
      trigger: 'test',
      today: '2026-11-25',
    });
    const status = (await readStatus()).catalog_sync;
    expect(status).toMatchObject({
      is_ok: true,
      error: null,
      origin: `test from ${simulator.simulator.url}`,
      changes: {
        parts_retired: ['MK2D4QN/A (GB, iPhone Duo 256GB Star White)'],
        counts: { parts_retired: 1, parts_added: 0 },
      },
    });
    expect(status?.last_success_at).toBe(status?.synced_at);
    // Anyone sees when it ran and what it changed, not where it read from.
    const response = await api.call({ method: 'GET', url: '/v2/status' });
    const anyone = publicWatchStatusSchema.parse(response.json()).catalog_sync;
    expect(anyone).toEqual({
      synced_at: status?.synced_at,
      is_ok: true,
      last_success_at: status?.last_success_at,
      changes: status?.changes,
    });
    expect(response.body).not.toContain(simulator.simulator.url);
  });

  it('shows a failed sync with its reason while keeping what the last good one changed', async () => {
    const failing: typeof fetch = async () => new Response('busy', { status: 503 });
    await expect(
      syncModelsFromBuyPages(api.testDb.db, {
        baseUrl: simulator.simulator.url,
        fetchPage: failing,
      }),
    ).rejects.toThrow(/HTTP 503/);
    const status = (await readStatus()).catalog_sync;
    expect(status?.is_ok).toBe(false);
    expect(status?.error).toContain('HTTP 503');
    expect(status?.changes?.parts_retired).toEqual(['MK2D4QN/A (GB, iPhone Duo 256GB Star White)']);
  });

  it('lists the pages a sync could not read beside what the others applied', async () => {
    const duoBusy: typeof fetch = async (input, init) =>
      String(input instanceof Request ? input.url : input).endsWith(
        '/uk/shop/buy-iphone/iphone-duo',
      )
        ? new Response('busy', { status: 503 })
        : await fetch(input, init);
    await syncModelsFromBuyPages(api.testDb.db, {
      baseUrl: simulator.simulator.url,
      fetchPage: duoBusy,
      trigger: 'test',
      today: '2026-11-25',
    });
    const status = (await readStatus()).catalog_sync;
    expect(status).toMatchObject({ is_ok: true, error: null, pages_retired: [] });
    expect(status?.page_problems).toEqual([
      `${simulator.simulator.url}/uk/shop/buy-iphone/iphone-duo: HTTP 503`,
    ]);
  });
});
