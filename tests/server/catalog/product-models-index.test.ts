import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markCatalogChanged } from '#server/catalog/catalog-cache.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { createProductModelsIndex } from '#server/catalog/product-models-index.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

describe('the product models index', () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await seedCatalog(testDb.db);
  });
  afterAll(async () => {
    await testDb.drop();
  });

  /** The models PostgreSQL lists for a pair, in the order search cards list them. */
  async function readModels(productId: string, countryCode: string) {
    const { rows } = await sql<{ part_number: string; display_name: string }>`
      select part_number, display_name from product_models
      where product_id = ${productId} and country_code = ${countryCode}
      order by display_name, part_number`.execute(testDb.db);
    return rows;
  }

  it('lists every pair of product and country in the order the cards read them', async () => {
    const index = await createProductModelsIndex({ db: testDb.db }).read();
    const { rows: pairs } = await sql<{ product_id: string; country_code: string }>`
      select distinct product_id, country_code from product_models`.execute(testDb.db);
    expect(pairs.length).toBeGreaterThan(10);
    for (const pair of pairs) {
      expect(index.modelsOf(pair.product_id, pair.country_code)).toEqual(
        await readModels(pair.product_id, pair.country_code),
      );
    }
  });

  it('answers no models for an unknown product, an unknown country or none', async () => {
    const index = await createProductModelsIndex({ db: testDb.db }).read();
    expect(index.modelsOf('iphone16pro', 'US').length).toBeGreaterThan(0);
    expect(index.modelsOf('no-such-product', 'US')).toEqual([]);
    expect(index.modelsOf('iphone16pro', 'ZZ')).toEqual([]);
    expect(index.modelsOf('iphone16pro', null)).toEqual([]);
  });

  it('keeps its index until a catalog change is announced, then reads the new one', async () => {
    const source = createProductModelsIndex({ db: testDb.db });
    const before = (await source.read()).modelsOf('iphone16pro', 'US');
    await testDb.db
      .insertInto('product_models')
      .values({
        product_id: 'iphone16pro',
        country_code: 'US',
        part_number: 'ZZ999LL/A',
        display_name: 'A test model',
        source: 'test',
      })
      .execute();
    expect((await source.read()).modelsOf('iphone16pro', 'US')).toEqual(before);
    markCatalogChanged();
    const after = (await source.read()).modelsOf('iphone16pro', 'US');
    expect(after).toEqual(await readModels('iphone16pro', 'US'));
    expect(after).toContainEqual({ part_number: 'ZZ999LL/A', display_name: 'A test model' });
  });
});
