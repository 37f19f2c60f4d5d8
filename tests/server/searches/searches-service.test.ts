import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchListSchema, type Search } from '#shared/api/index.ts';
import { upsertSnapshots } from '#server/db/repositories/availability-repository.ts';
import {
  findOrCreateUserByIdentity,
  updateUserPlan,
} from '#server/db/repositories/users-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { disableSearchEmailUpdates } from '#server/db/repositories/notify-repository.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import {
  createSearchListCache,
  SEARCH_LIST_MAX_AGE_MS,
  type SearchListCache,
} from '#server/searches/search-list-cache.ts';
import {
  createUserSearch,
  deleteUserSearch,
  updateUserSearch,
} from '#server/searches/searches-service.ts';
import { createCardCatalog } from '#server/catalog/card-catalog.ts';
import { createCountingDatabase, type CountingDatabase } from '#tests/helpers/query-counter.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

const NOW = 1_750_000_000_000;

describe('the search list cache', () => {
  let testDb: TestDatabase;
  let counting: CountingDatabase;
  let lists: SearchListCache;
  let user: UserRow;

  async function readList(now = NOW): Promise<Search[]> {
    return searchListSchema.parse(JSON.parse((await lists.read(user, now)).toString()));
  }

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await seedCatalog(testDb.db);
    counting = createCountingDatabase(testDb.url);
    // No spread: the refresh starts at exactly the maximum age.
    // Names and models come from a catalog of their own (not counted): the statements counted are
    // the list's.
    lists = createSearchListCache({
      db: counting.db,
      serialize: JSON.stringify,
      random: () => 0,
      catalog: createCardCatalog({ db: testDb.db }),
    });
    user = await findOrCreateUserByIdentity(testDb.db, {
      issuer: 'https://issuer.example/',
      subject: 'lister',
    });
    await updateUserPlan(testDb.db, user.id, 'best');
    user = { ...user, plan: 'best' };
  });
  afterAll(async () => {
    lists.close();
    await counting.destroy();
    await testDb.drop();
  });

  it('answers from memory until a write of this process changes the list', async () => {
    const created = await createUserSearch(testDb.db, user, {
      product_type: 'iphone16pro',
      store_id: 'R095',
    });
    counting.reset();
    // Kept from the second read on: the first is answered without keeping it.
    expect((await readList()).map((search) => search.id)).toEqual([created.id]);
    expect(await readList()).toHaveLength(1);
    expect(await readList()).toHaveLength(1);
    expect(counting.readStatements()).toHaveLength(2);

    const second = await createUserSearch(testDb.db, user, {
      product_type: 'iphone16',
      store_id: 'R095',
    });
    expect((await readList()).map((search) => search.id)).toEqual([created.id, second.id]);

    await updateUserSearch(testDb.db, user, second.id, {
      ...second,
      send_email_updates: false,
    });
    expect((await readList())[1].send_email_updates).toBe(false);

    await disableSearchEmailUpdates(testDb.db, created.id);
    expect((await readList())[0].send_email_updates).toBe(false);

    await deleteUserSearch(testDb.db, user, second.id);
    expect((await readList()).map((search) => search.id)).toEqual([created.id]);
  });

  it('keeps no list read once in a while, and keeps it when read again within the maximum age', async () => {
    const once = createSearchListCache({
      db: counting.db,
      serialize: JSON.stringify,
      catalog: createCardCatalog({ db: testDb.db }),
    });
    try {
      counting.reset();
      expect(typeof (await once.read(user, NOW))).toBe('string');
      expect(typeof (await once.read(user, NOW + 2 * SEARCH_LIST_MAX_AGE_MS))).toBe('string');
      expect(counting.readStatements()).toHaveLength(2);
      expect(Buffer.isBuffer(await once.read(user, NOW + 3 * SEARCH_LIST_MAX_AGE_MS - 1))).toBe(
        true,
      );
      expect(Buffer.isBuffer(await once.read(user, NOW + 3 * SEARCH_LIST_MAX_AGE_MS))).toBe(true);
      expect(counting.readStatements()).toHaveLength(3);
    } finally {
      once.close();
    }
  });

  it('refreshes an old list in the background and serves the previous one meanwhile', async () => {
    const [search] = await readList(NOW);
    expect(search.stores_with_inventory).toBe(0);
    const part = search.product_models[0].part_number;
    // What the watcher writes: a model becomes available at the search's store.
    await upsertSnapshots(testDb.db, [
      {
        store_id: 'R095',
        part_number: part,
        status: 'available',
        pickup_quote: 'Today',
        observed_at: new Date(),
      },
    ]);
    expect((await readList(NOW + SEARCH_LIST_MAX_AGE_MS - 1))[0].stores_with_inventory).toBe(0);
    expect((await readList(NOW + SEARCH_LIST_MAX_AGE_MS))[0].stores_with_inventory).toBe(0);
    await expect
      .poll(async () => (await readList(NOW + SEARCH_LIST_MAX_AGE_MS + 1))[0].stores_with_inventory)
      .toBe(1);
  });

  it('waits for a fresh list once the kept one is twice its maximum age', async () => {
    await upsertSnapshots(testDb.db, [
      {
        store_id: 'R095',
        part_number: (await readList(NOW + SEARCH_LIST_MAX_AGE_MS + 1))[0].product_models[0]
          .part_number,
        status: 'unavailable',
        pickup_quote: null,
        observed_at: new Date(),
      },
    ]);
    const later = NOW + 10 * SEARCH_LIST_MAX_AGE_MS;
    expect((await readList(later))[0].stores_with_inventory).toBe(0);
  });

  it('spreads the refreshes of lists loaded at the same time over half the maximum age', async () => {
    const spread = createSearchListCache({
      db: counting.db,
      serialize: JSON.stringify,
      random: () => 1,
      catalog: createCardCatalog({ db: testDb.db }),
    });
    try {
      await spread.read(user, NOW);
      await spread.read(user, NOW);
      counting.reset();
      await spread.read(user, NOW + SEARCH_LIST_MAX_AGE_MS * 1.4);
      expect(counting.readStatements()).toHaveLength(0);
      await spread.read(user, NOW + SEARCH_LIST_MAX_AGE_MS * 1.5);
      await expect.poll(() => counting.readStatements().length).toBe(1);
    } finally {
      spread.close();
    }
  });

  it('keeps the lists read most recently, up to its size', async () => {
    const small = createSearchListCache({
      db: counting.db,
      serialize: JSON.stringify,
      maxEntries: 2,
      catalog: createCardCatalog({ db: testDb.db }),
    });
    const others = await Promise.all(
      ['second lister', 'third lister'].map((subject) =>
        findOrCreateUserByIdentity(testDb.db, { issuer: 'https://issuer.example/', subject }),
      ),
    );
    const countReads = async (readers: UserRow[]): Promise<number> => {
      counting.reset();
      for (const reader of readers) await small.read(reader, NOW);
      return counting.readStatements().length;
    };
    try {
      // Each list is kept from its second read on.
      expect(await countReads([user, user, others[0], others[0]])).toBe(4);
      expect(await countReads([user, others[0]])).toBe(0);
      // Read again, the first list is the most recent: the third user's pushes out the second's.
      expect(await countReads([user, others[1], others[1]])).toBe(2);
      expect(await countReads([user, others[1]])).toBe(0);
      expect(await countReads([others[0]])).toBe(1);
    } finally {
      small.close();
    }
  });
});
