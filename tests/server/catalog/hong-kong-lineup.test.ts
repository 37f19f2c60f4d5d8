import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import {
  findStoreWithCountry,
  listProductModels,
} from '#server/db/repositories/catalog-repository.ts';
import {
  findOrCreateUserByIdentity,
  updateUserPlan,
} from '#server/db/repositories/users-repository.ts';
import { createUserSearch } from '#server/searches/searches-service.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

// Issue 41's acceptance: a search at Causeway Bay (R409) for iPhone 18 Pro shows Hong Kong's
// configurations, each part with where its number was seen.

describe('the Hong Kong lineup', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedCatalog(database.db);
  });

  afterAll(async () => {
    await database.drop();
  });

  it('shows a search at Causeway Bay its 16 iPhone 18 Pro configurations, each with its source', async () => {
    const store = await findStoreWithCountry(database.db, 'R409');
    expect(store?.country_code).toBe('HK');
    const user = await findOrCreateUserByIdentity(database.db, {
      issuer: 'https://idp.test/',
      subject: 'causeway-bay',
      email: 'causeway@example.com',
    });
    await updateUserPlan(database.db, user.id, 'best');
    const search = await createUserSearch(
      database.db,
      { ...user, plan: 'best' },
      { product_type: 'iphone18pro', store_id: 'R409' },
    );
    expect(search.product_models).toHaveLength(16);
    expect(search.product_models.every((model) => model.part_number.endsWith('ZA/A'))).toBe(true);
    expect(search.product_models.map((model) => model.display_name)).toContain(
      'iPhone 18 Pro 2TB Glacier',
    );
    const stored = await listProductModels(database.db, 'iphone18pro', 'HK');
    for (const model of stored) {
      expect(model.source, model.part_number).toMatch(
        /^single source: HK-DGON: Dgon5000\/iphone-stock-watch-hk README\.md \(commit 049b5db/,
      );
      expect(model.retired_on).toBeNull();
    }
  });
});
