import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeListSchema } from '#shared/api/catalog.ts';
import { searchSchema } from '#shared/api/searches.ts';
import { operatorWatchStatusSchema, publicWatchStatusSchema } from '#shared/api/watch.ts';
import { PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { syncStoreDirectory } from '#server/catalog/directory-sync.ts';
import { createMetrics } from '#server/ops/metrics.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';
import { startSimulatorHarness, type SimulatorHarness } from '#tests/server/simulator/support.ts';

// A store the directory stops listing, through the API: still served in /v2/stores with the
// day it closed, kept (and editable) for the search that watches it, which reads "(closed)",
// refused for a new search with a 400 naming store_id; /v2/status shows the read per country.

const US_STORE = STORE_SEEDS.find((store) => store.country_locale === 'en_US')!;
const US_PRODUCT = PRODUCT_MODEL_SEEDS.find(
  (model) => model.country_code === 'US' && (model.retired_on ?? null) === null,
)!.product_id;
const NOW = Date.parse('2026-11-25T09:00:00Z');

describe('a store closed by the directory sync, through the API', () => {
  let api: ApiHarness;
  let simulator: SimulatorHarness;
  let withToken: FastifyInstance;
  let alice: TestUser;
  let searchId = '';

  beforeAll(async () => {
    api = await startApiHarness();
    simulator = await startSimulatorHarness();
    withToken = await api.buildVariant({
      metrics: { registry: createMetrics(api.testDb.db), token: 'operator-token' },
    });
    alice = await api.createUser('alice', 'best');
    const created = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: alice,
      body: { product_type: US_PRODUCT, store_id: US_STORE.store_id },
    });
    expect(created.statusCode, created.body).toBe(201);
    searchId = searchSchema.parse(created.json()).id;
    await simulator.control('POST', '/_sim/store-list', {
      store_id: US_STORE.store_id,
      listed: false,
    });
    const result = await syncStoreDirectory(api.testDb.db, {
      baseUrl: simulator.simulator.url,
      countryCodes: ['US'],
      now: () => NOW,
    });
    expect(result.countries[0].closed).toEqual([US_STORE.store_id]);
  }, 60_000);
  afterAll(async () => {
    await withToken?.close();
    await simulator?.close();
    await api?.close();
  });

  it('still lists the store in /v2/stores, with the day it closed', async () => {
    const response = await api.call({ method: 'GET', url: '/v2/stores' });
    const store = storeListSchema
      .parse(response.json())
      .find((entry) => entry.store_id === US_STORE.store_id);
    expect(store?.closed_on).toBe('2026-11-25');
  });

  it('refuses a new search at it with a 400 naming store_id and a readable reason', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: alice,
      body: { product_type: US_PRODUCT, store_id: US_STORE.store_id },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_input', field: 'store_id' });
    expect(response.json<{ reason: string }>().reason).toBe(
      `${US_STORE.store_name} closed on 2026-11-25: Apple no longer lists it. Please choose another store.`,
    );
  });

  it('keeps the existing search, reading "(closed)", and lets it be edited', async () => {
    const read = await api.call({ method: 'GET', url: `/v2/searches/${searchId}`, as: alice });
    expect(read.statusCode).toBe(200);
    const search = searchSchema.parse(read.json());
    expect(search.store_name).toBe(`${US_STORE.store_name} (closed)`);
    const edited = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${searchId}`,
      as: alice,
      body: {
        product_type: US_PRODUCT,
        store_id: US_STORE.store_id,
        include_nearby_store_results: false,
        show_results_only_for_preferred_models: false,
        send_text_updates: false,
        send_email_updates: true,
        product_models: [],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
  });

  it('shows the directory read per country on /v2/status, its error only to the operator', async () => {
    const open = await api.call({ method: 'GET', url: '/v2/status' });
    const publicView = publicWatchStatusSchema.parse(open.json());
    expect(publicView.directory_sync).toEqual([
      expect.objectContaining({
        country_code: 'US',
        outcome: 'read',
        closed: [US_STORE.store_id],
        synced_at: new Date(NOW).toISOString(),
      }),
    ]);
    expect(open.json<{ directory_sync: unknown[] }>().directory_sync[0]).not.toHaveProperty(
      'error',
    );
    const operator = await withToken.inject({
      method: 'GET',
      url: '/v2/status',
      headers: { authorization: 'Bearer operator-token' },
    });
    const operatorView = operatorWatchStatusSchema.parse(operator.json());
    expect(operatorView.directory_sync?.[0]).toMatchObject({ error: null });
  });
});
