import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCardCatalog } from '#server/catalog/card-catalog.ts';
import { markCatalogChanged } from '#server/catalog/catalog-cache.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

describe('the card catalog', () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await seedCatalog(testDb.db);
  });
  afterAll(async () => {
    await testDb.drop();
  });

  it('places every store as the cards’ joins did: names, city, state and country code', async () => {
    const catalog = await createCardCatalog({ db: testDb.db }).read();
    const { rows } = await sql<{
      store_id: string;
      store_name: string;
      store_city: string;
      store_state: string | null;
      country_code: string | null;
    }>`
      select st.store_id, st.store_name, st.city as store_city, st.state_code as store_state,
        c.country_code
      from stores st left join countries c on c.locale_code = st.country_locale`.execute(testDb.db);
    expect(rows.length).toBeGreaterThan(50);
    for (const { store_id, ...place } of rows) {
      expect(catalog.placeOf(store_id)).toEqual(place);
    }
    expect(catalog.placeOf('R000-no-such-store')).toBeUndefined();
  });

  it('names every product type, and knows the models of each product per country', async () => {
    const catalog = await createCardCatalog({ db: testDb.db }).read();
    const { rows } = await sql<{ product_id: string; product_name: string }>`
      select product_id, product_name from product_types`.execute(testDb.db);
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) expect(catalog.productNameOf(row.product_id)).toBe(row.product_name);
    expect(catalog.productNameOf('no-such-product')).toBeUndefined();
    expect(catalog.modelsOf('iphone16pro', 'US').length).toBeGreaterThan(0);
  });

  it('keeps its names until a catalog change is announced, then reads the new ones', async () => {
    const source = createCardCatalog({ db: testDb.db });
    const before = (await source.read()).placeOf('R095');
    expect(before?.store_name).toBe('Fifth Avenue');
    await testDb.db
      .updateTable('stores')
      .set({ store_name: 'Fifth Avenue (renamed)' })
      .where('store_id', '=', 'R095')
      .execute();
    try {
      expect((await source.read()).placeOf('R095')).toEqual(before);
      markCatalogChanged();
      expect((await source.read()).placeOf('R095')?.store_name).toBe('Fifth Avenue (renamed)');
    } finally {
      await testDb.db
        .updateTable('stores')
        .set({ store_name: 'Fifth Avenue' })
        .where('store_id', '=', 'R095')
        .execute();
      markCatalogChanged();
    }
  });
});
