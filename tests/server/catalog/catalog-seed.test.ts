import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countryListSchema, storeListSchema } from '#shared/api/index.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { startApiHarness, type ApiHarness } from '#tests/helpers/api-harness.ts';

describe('the catalog seed on a fresh start', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(async () => api.close());

  it('offers every Apple Store of the seed, at least 500 in at least 25 countries', async () => {
    const stores = storeListSchema.parse(
      (await api.call({ method: 'GET', url: '/v2/stores' })).json(),
    );
    expect(stores.length).toBeGreaterThanOrEqual(500);
    expect(new Set(stores.map((store) => store.country_locale)).size).toBeGreaterThanOrEqual(25);
    expect(stores.find((store) => store.store_id === 'R409')).toMatchObject({
      store_name: 'Causeway Bay',
      city: 'Causeway Bay',
      state_code: null,
    });
  });

  it('answers a country for every country with stores', async () => {
    const [stores, countries] = await Promise.all([
      api.call({ method: 'GET', url: '/v2/stores' }),
      api.call({ method: 'GET', url: '/v2/countries' }),
    ]);
    const locales = new Set(countryListSchema.parse(countries.json()).map((c) => c.locale_code));
    for (const store of storeListSchema.parse(stores.json())) {
      expect(locales, store.store_id).toContain(store.country_locale);
    }
    const codes = countryListSchema.parse(countries.json()).map((c) => c.country_code);
    expect(codes).toEqual(expect.arrayContaining(['HK', 'TH', 'AE', 'KR', 'IT', 'BR', 'TR']));
  });

  it('stores each store’s coordinates and time zone, and seeds again without change', async () => {
    const read = () =>
      api.testDb.db
        .selectFrom('stores')
        .select(['store_id', 'latitude', 'longitude', 'time_zone'])
        .where('store_id', 'in', ['R785', 'R409', 'R095'])
        .orderBy('store_id')
        .execute();
    const before = await read();
    expect(before).toEqual([
      expect.objectContaining({ store_id: 'R095', time_zone: 'America/New_York' }),
      expect.objectContaining({ store_id: 'R409', time_zone: 'Asia/Hong_Kong' }),
      expect.objectContaining({ store_id: 'R785', time_zone: 'Asia/Dubai' }),
    ]);
    for (const row of before) expect(row.latitude).not.toBeNull();
    const count = async () =>
      (await api.testDb.db.selectFrom('stores').select('store_id').execute()).length;
    const stored = await count();
    await seedCatalog(api.testDb.db);
    expect(await read()).toEqual(before);
    expect(await count()).toBe(stored);
  });
});
