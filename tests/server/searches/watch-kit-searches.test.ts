import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchListSchema, searchSchema } from '#shared/api/index.ts';
import { WATCH_KIT_NOTE } from '#shared/catalog/watch-kits.ts';
import { insertSearch } from '#server/db/repositories/searches-repository.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';

// Apple answers for an Apple Watch case only together with a band, and the catalog does not yet
// say which band goes with which case: a new Watch search is refused, an existing one stays.
const US_STORE = 'R095';

describe('searches of an Apple Watch type', () => {
  let api: ApiHarness;
  let dana: TestUser;
  beforeAll(async () => {
    api = await startApiHarness();
    dana = await api.createUser('dana', 'best');
  });
  afterAll(async () => api.close());

  it('refuses a new one with a 400 on product_type that says why, and creates nothing', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: dana,
      body: { product_type: 'applewatchultra', store_id: US_STORE },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'invalid_input',
      field: 'product_type',
      reason: WATCH_KIT_NOTE,
      message: `product_type: ${WATCH_KIT_NOTE}`,
    });
    const list = await api.call({ method: 'GET', url: '/v2/searches/my_searches', as: dana });
    expect(searchListSchema.parse(list.json())).toEqual([]);
  });

  it('keeps one made before: it reads and its switches still save', async () => {
    const row = await insertSearch(api.testDb.db, {
      user_id: dana.user.id,
      product_type: 'applewatchultra',
      store_id: US_STORE,
      include_nearby_store_results: true,
      show_results_only_for_preferred_models: false,
      send_text_updates: false,
      send_email_updates: true,
      max_distance_miles: null,
    });
    const read = await api.call({ method: 'GET', url: `/v2/searches/${row.id}`, as: dana });
    expect(read.statusCode).toBe(200);
    const search = searchSchema.parse(read.json());
    const edited = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${row.id}`,
      as: dana,
      body: { ...search, include_nearby_store_results: false },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(searchSchema.parse(edited.json())).toMatchObject({
      product_type: 'applewatchultra',
      include_nearby_store_results: false,
    });
  });
});
