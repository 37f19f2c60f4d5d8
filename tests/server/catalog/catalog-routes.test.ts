import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  countryListSchema,
  exampleInventorySchema,
  productListSchema,
  storeListSchema,
} from '#shared/api/index.ts';
import { upsertSnapshots } from '#server/db/repositories/availability-repository.ts';
import { importStoreDirectory } from '#server/catalog/catalog-seed.ts';
import { startApiHarness, type ApiHarness } from '#tests/helpers/api-harness.ts';

describe('public catalog endpoints', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(async () => api.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists products without a token, in the contract shape', async () => {
    const response = await api.call({ method: 'GET', url: '/v2/products' });
    expect(response.statusCode).toBe(200);
    const products = productListSchema.parse(response.json());
    expect(products.map((p) => p.product_name)).toEqual(
      expect.arrayContaining(['iPhone 16', 'iPhone 18 Pro Max']),
    );
    expect(Object.keys(products[0]).sort()).toEqual(['product_id', 'product_name', 'sold_in']);
  });

  it('lists the newest iPhones first and leaves out types sold nowhere', async () => {
    const response = await api.call({ method: 'GET', url: '/v2/products' });
    const names = productListSchema.parse(response.json()).map((p) => p.product_name);
    expect(names.slice(0, 5)).toEqual([
      'iPhone 18 Pro Max',
      'iPhone 18 Pro',
      'iPhone Duo',
      'iPhone 17',
      'iPhone Air',
    ]);
    expect(names).not.toContain('iPhone 16 Pro');
    expect(names).not.toContain('iPhone 13 mini');
  });

  it('lists stores with every server field of the Store entity', async () => {
    const response = await api.call({ method: 'GET', url: '/v2/stores' });
    expect(response.statusCode).toBe(200);
    const stores = storeListSchema.parse(response.json());
    expect(stores.length).toBeGreaterThanOrEqual(40);
    const fifthAvenue = stores.find((store) => store.store_id === 'R095');
    expect(fifthAvenue).toMatchObject({
      store_name: 'Fifth Avenue',
      country_locale: 'en_US',
      state_code: 'NY',
      city: 'New York',
    });
    expect(Object.keys(stores[0]).sort()).toEqual(
      [
        'address1',
        'address2',
        'city',
        'closed_on',
        'country_locale',
        'postal_code',
        'state_code',
        'state_name',
        'store_id',
        'store_name',
        'store_slug',
        'telephone',
      ].sort(),
    );
  });

  it('lists countries whose locales match the stores', async () => {
    const countries = countryListSchema.parse(
      (await api.call({ method: 'GET', url: '/v2/countries' })).json(),
    );
    const stores = storeListSchema.parse(
      (await api.call({ method: 'GET', url: '/v2/stores' })).json(),
    );
    const locales = new Set(countries.map((country) => country.locale_code));
    expect(stores.every((store) => locales.has(store.country_locale))).toBe(true);
    expect(countries.find((country) => country.country_code === 'US')).toEqual({
      country_code: 'US',
      locale_code: 'en_US',
      display_name: 'United States',
    });
  });

  it('counts available models per store and product type in the example inventory', async () => {
    const empty = exampleInventorySchema.parse(
      (await api.call({ method: 'GET', url: '/v2/inventory/example_inventory' })).json(),
    );
    expect(empty).toEqual([]);
    const partsOf = async (productId: string, limit: number): Promise<string[]> =>
      (
        await api.testDb.db
          .selectFrom('product_models')
          .select('part_number')
          .where('product_id', '=', productId)
          .where('country_code', '=', 'US')
          .orderBy('part_number')
          .limit(limit)
          .execute()
      ).map((row) => row.part_number);
    const [first, second, third] = await partsOf('iphone18pro', 3);
    const [older] = await partsOf('iphone16', 1);
    const [retired] = await partsOf('iphone16pro', 1);
    const observed_at = new Date();
    const snapshot = (part_number: string | undefined, status: 'available' | 'unavailable') => ({
      store_id: 'R095',
      part_number: part_number ?? '',
      status,
      pickup_quote: status === 'available' ? 'Today' : null,
      observed_at,
    });
    await upsertSnapshots(api.testDb.db, [
      snapshot(older, 'available'),
      snapshot(retired, 'available'),
      snapshot(first, 'available'),
      snapshot(second, 'available'),
      snapshot(third, 'unavailable'),
      // iPhone 17 Pro Max is retired in the US (and Australia) but still sold in Germany:
      // Dresden's stock counts, Fifth Avenue's and Sydney's do not.
      snapshot('MFXG4LL/A', 'available'),
      { ...snapshot('MFYM4X/A', 'available'), store_id: 'R238' },
      { ...snapshot('MFYM4ZD/A', 'available'), store_id: 'R430' },
    ]);
    // Served from memory: the new counts show once the 15 s cache has been refreshed. Newest
    // types lead; a retired type's leftover stock is not offered on the landing page, nor a
    // type's stock in a country where it is retired.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 15_000 });
    await expect
      .poll(async () =>
        exampleInventorySchema.parse(
          (await api.call({ method: 'GET', url: '/v2/inventory/example_inventory' })).json(),
        ),
      )
      .toEqual([
        { product_type: 'iphone18pro', inventory: [{ store_id: 'R095', product_count: 2 }] },
        { product_type: 'iphone17promax', inventory: [{ store_id: 'R430', product_count: 1 }] },
        { product_type: 'iphone16', inventory: [{ store_id: 'R095', product_count: 1 }] },
      ]);
  });

  it('answers catalog reads with a strong ETag, public caching and 304 for a matching tag', async () => {
    for (const url of [
      '/v2/products',
      '/v2/stores',
      '/v2/countries',
      '/v2/inventory/example_inventory',
    ]) {
      const first = await api.call({ method: 'GET', url });
      expect(first.statusCode).toBe(200);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{16,}"$/);
      expect(first.headers['cache-control']).toMatch(/^public, max-age=(60|15), must-revalidate$/);
      const again = await api.call({ method: 'GET', url });
      expect(again.headers.etag).toBe(etag);
      expect(again.body).toBe(first.body);

      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const revalidated = await api.app.inject({
          method: 'GET',
          url,
          headers: { 'if-none-match': ifNoneMatch },
        });
        expect(revalidated.statusCode, ifNoneMatch).toBe(304);
        expect(revalidated.body).toBe('');
        expect(revalidated.headers.etag).toBe(etag);
      }
      const changed = await api.app.inject({
        method: 'GET',
        url,
        headers: { 'if-none-match': '"an-older-body"' },
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.body).toBe(first.body);
    }
  });

  it('serves a store import at once, under a new ETag', async () => {
    const before = await api.call({ method: 'GET', url: '/v2/stores' });
    const directory = {
      storeListData: [
        {
          locale: 'en_US',
          hasStates: true,
          state: [
            {
              name: 'New York',
              store: [
                {
                  id: 'R999',
                  name: 'Test Harbour',
                  slug: 'testharbour',
                  address: { address1: '1 Test Pier', city: 'New York', stateCode: 'NY' },
                },
              ],
            },
          ],
        },
      ],
    };
    const report = await importStoreDirectory(api.testDb.db, 'https://stores.example/list', () =>
      Promise.resolve(new Response(JSON.stringify(directory))),
    );
    expect(report.imported).toBe(1);
    const after = await api.call({ method: 'GET', url: '/v2/stores' });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(storeListSchema.parse(after.json()).map((store) => store.store_id)).toContain('R999');
  });

  it('answers unknown /v2 routes with a JSON 404', async () => {
    const response = await api.call({ method: 'GET', url: '/v2/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({
      code: 'not_found',
      reason: "We couldn't find what you asked for. It may have been deleted.",
    });
  });
});
