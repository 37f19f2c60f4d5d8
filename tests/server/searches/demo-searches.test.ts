import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { listProductModels } from '#server/db/repositories/catalog-repository.ts';
import { listCurrentProductTypes } from '#server/db/repositories/catalog-changes-repository.ts';
import { listSearchListRowsByUsers } from '#server/db/repositories/search-cards-repository.ts';
import {
  findOrCreateUserByIdentity,
  updateUserPlan,
} from '#server/db/repositories/users-repository.ts';
import { createIdpAccount, findIdpAccount } from '#server/identity/index.ts';
import { DEMO_EMAIL, ensureDemoAccount } from '#server/searches/demo-account.ts';
import { createUserSearch } from '#server/searches/searches-service.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

const ISSUER = 'http://127.0.0.1:1/';

async function listDemoSearches(database: TestDatabase) {
  const account = await findIdpAccount(database.db, { email: DEMO_EMAIL });
  const user = await findOrCreateUserByIdentity(database.db, {
    issuer: ISSUER,
    subject: account?.id ?? '',
    email: DEMO_EMAIL,
  });
  const [searches = []] = await listSearchListRowsByUsers(database.db, [user.id]);
  return searches;
}

/** Whether the picker still offers the type at a US store (else the card says "No longer sold"). */
async function isSoldInUs(database: TestDatabase, productType: string): Promise<boolean> {
  const current = await listCurrentProductTypes(database.db);
  return current.some((type) => type.product_id === productType && type.sold_in.includes('US'));
}

describe('demo searches', () => {
  let database: TestDatabase;

  beforeEach(async () => {
    database = await createTestDatabase();
    await seedCatalog(database.db);
  });

  afterEach(async () => {
    await database.drop();
  });

  it('has a fresh demo account watch iPhone 18 Pro at Fifth Avenue and iPhone Duo at Union Square, models on sale', async () => {
    await ensureDemoAccount(database.db, { issuer: ISSUER, password: undefined });
    const searches = await listDemoSearches(database);
    expect(searches.map((search) => `${search.product_type}@${search.store_id}`)).toEqual([
      'iphone18pro@R095',
      'iphoneduo@R075',
    ]);
    for (const search of searches) {
      expect(await isSoldInUs(database, search.product_type), search.product_type).toBe(true);
      const models = await listProductModels(database.db, search.product_type, 'US');
      expect(search.preferred_parts.length).toBeGreaterThan(0);
      for (const part of search.preferred_parts) {
        const model = models.find((candidate) => candidate.part_number === part);
        expect(model?.retired_on, part).toBeNull();
      }
    }
  });

  it("moves an older install's iPhone 16 Pro demo searches onto today's models, keeping their settings", async () => {
    const account = await createIdpAccount(database.db, {
      email: DEMO_EMAIL,
      password: 'an-older-demo-password',
      isEmailVerified: true,
    });
    const user = await findOrCreateUserByIdentity(database.db, {
      issuer: ISSUER,
      subject: account.id,
      email: DEMO_EMAIL,
    });
    await updateUserPlan(database.db, user.id, 'best');
    const best = { ...user, plan: 'best' as const };
    // What the earlier release created, plus one search the visitor made themselves.
    await createUserSearch(database.db, best, {
      product_type: 'iphone16pro',
      store_id: 'R095',
      send_email_updates: false,
      max_distance_miles: 25,
    });
    await createUserSearch(database.db, best, { product_type: 'iphone16promax', store_id: 'R075' });
    await createUserSearch(database.db, best, { product_type: 'iphone16pro', store_id: 'R075' });
    expect(await isSoldInUs(database, 'iphone16pro')).toBe(false);

    const result = await ensureDemoAccount(database.db, { issuer: ISSUER, password: undefined });

    expect(result.isCreated).toBe(false);
    const searches = await listDemoSearches(database);
    expect(searches.map((search) => `${search.product_type}@${search.store_id}`)).toEqual([
      'iphone18pro@R095',
      'iphoneduo@R075',
      'iphone16pro@R075',
    ]);
    expect(searches[0]).toMatchObject({ send_email_updates: false, max_distance_miles: 25 });
    expect(searches[0]?.preferred_parts.length).toBe(3);
    // A second start finds nothing left to move.
    await ensureDemoAccount(database.db, { issuer: ISSUER, password: undefined });
    expect((await listDemoSearches(database)).map((search) => search.product_type)).toEqual([
      'iphone18pro',
      'iphoneduo',
      'iphone16pro',
    ]);
  });
});
