import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productListSchema, searchListSchema, searchSchema } from '#shared/api/index.ts';
import { insertSearch } from '#server/db/repositories/searches-repository.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';

// In the bundled catalog iPhone 17 Pro Max is retired in the US (2026-09-18) and the countries
// whose buy page redirects (2026-09-11), and still sold in Germany; iPhone 18 Pro has no
// Australian part numbers.
const US_STORE = 'R095';
const OTHER_US_STORE = 'R075';
const AU_STORE = 'R238';
const DE_STORE = 'R430';

describe('searches of a product type retired in one country', () => {
  let api: ApiHarness;
  let carol: TestUser;
  beforeAll(async () => {
    api = await startApiHarness();
    carol = await api.createUser('carol', 'best');
  });
  afterAll(async () => api.close());

  async function listSearchIds(): Promise<string[]> {
    const response = await api.call({ method: 'GET', url: '/v2/searches/my_searches', as: carol });
    return searchListSchema.parse(response.json()).map((search) => search.id);
  }

  it('lists with each product the countries where it is sold', async () => {
    const response = await api.call({ method: 'GET', url: '/v2/products' });
    const products = productListSchema.parse(response.json());
    const proMax = products.find((product) => product.product_id === 'iphone17promax');
    expect(proMax?.sold_in).toEqual(['DE']);
    const latest = products.find((product) => product.product_id === 'iphone18pro');
    expect(latest?.sold_in).toEqual(['AE', 'CA', 'GB', 'HK', 'TH', 'US']);
  });

  it('refuses a new search of it at a US store with 400 naming the field, and creates nothing', async () => {
    const before = await listSearchIds();
    const response = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: carol,
      body: { product_type: 'iphone17promax', store_id: US_STORE },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 'invalid_input',
      field: 'product_type',
      reason:
        "iPhone 17 Pro Max is no longer sold in this store's country (United States). Please choose another product, or a store in a country where it is sold.",
      message:
        "product_type: iPhone 17 Pro Max is no longer sold in this store's country (United States)",
    });
    const neverSold = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: carol,
      body: { product_type: 'iphone18pro', store_id: AU_STORE },
    });
    expect(neverSold.statusCode).toBe(400);
    expect(neverSold.json()).toMatchObject({
      field: 'product_type',
      message: "product_type: iPhone 18 Pro is not sold in this store's country (Australia)",
    });
    expect(await listSearchIds()).toEqual(before);
  });

  it('creates one at a German store with its German models', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: carol,
      body: { product_type: 'iphone17promax', store_id: DE_STORE },
    });
    expect(response.statusCode, response.body).toBe(201);
    const search = searchSchema.parse(response.json());
    expect(search.product_name).toBe('iPhone 17 Pro Max');
    expect(search.product_models.map((model) => model.part_number)).toContain('MFYM4ZD/A');
  });

  it('keeps an existing US search working and editable, but refuses moving it to another US store', async () => {
    // Made before the retirement: written as the API wrote it then.
    const row = await insertSearch(api.testDb.db, {
      user_id: carol.user.id,
      product_type: 'iphone17promax',
      store_id: US_STORE,
      include_nearby_store_results: true,
      show_results_only_for_preferred_models: false,
      send_text_updates: false,
      send_email_updates: true,
      max_distance_miles: null,
    });
    const read = await api.call({ method: 'GET', url: `/v2/searches/${row.id}`, as: carol });
    expect(read.statusCode).toBe(200);
    const search = searchSchema.parse(read.json());
    expect(search).toMatchObject({
      product_name: 'iPhone 17 Pro Max',
      store_name: 'Fifth Avenue',
    });
    expect(search.product_models.map((model) => model.part_number)).toContain('MFXG4LL/A');
    expect(await listSearchIds()).toContain(row.id);

    const edited = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${row.id}`,
      as: carol,
      body: {
        ...search,
        include_nearby_store_results: false,
        product_models: search.product_models.map((model) => ({ ...model, is_preferred: true })),
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(searchSchema.parse(edited.json()).product_models.every((m) => m.is_preferred)).toBe(
      true,
    );

    const moved = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${row.id}`,
      as: carol,
      body: { ...searchSchema.parse(edited.json()), store_id: OTHER_US_STORE },
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ code: 'invalid_input', field: 'product_type' });
    const after = searchSchema.parse(
      (await api.call({ method: 'GET', url: `/v2/searches/${row.id}`, as: carol })).json(),
    );
    expect(after.store_id).toBe(US_STORE);
    expect(after.include_nearby_store_results).toBe(false);

    const toGermany = await api.call({
      method: 'PATCH',
      url: `/v2/searches/${row.id}`,
      as: carol,
      body: { ...after, store_id: DE_STORE },
    });
    expect(toGermany.statusCode, toGermany.body).toBe(200);
    expect(searchSchema.parse(toGermany.json()).store_id).toBe(DE_STORE);
  });
});
