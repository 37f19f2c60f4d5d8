import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  searchHistorySchema,
  searchInventorySchema,
  searchListSchema,
  searchSchema,
} from '#shared/api/index.ts';
import { PRODUCT_MODEL_SEEDS, PRODUCT_TYPE_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import {
  insertAvailabilityEvents,
  upsertNeighbours,
  upsertSnapshots,
} from '#server/db/repositories/availability-repository.ts';
import {
  announceSearchChange,
  insertSearch,
  replacePreferredParts,
} from '#server/db/repositories/searches-repository.ts';
import { updateUserPlan } from '#server/db/repositories/users-repository.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';
import { createCountingDatabase, type CountingDatabase } from '#tests/helpers/query-counter.ts';

/** What the issue allows a signed-in read, the user lookup of a new token included. */
const MAX_QUERIES_PER_READ = 3;
const US_STORES = STORE_SEEDS.filter((store) => store.country_locale === 'en_US').map(
  (store) => store.store_id,
);
const US_PRODUCTS = PRODUCT_TYPE_SEEDS.map((product) => product.product_id).filter((productId) =>
  PRODUCT_MODEL_SEEDS.some((m) => m.product_id === productId && m.country_code === 'US'),
);

function listUsParts(productId: string): string[] {
  return PRODUCT_MODEL_SEEDS.filter(
    (model) => model.product_id === productId && model.country_code === 'US',
  ).map((model) => model.part_number);
}

describe('signed-in reads in a constant number of queries', () => {
  let api: ApiHarness;
  let counting: CountingDatabase;
  let app: FastifyInstance;
  let single: TestUser;
  let full: TestUser;
  let fullSearchIds: string[];

  /** A GET as `user` with the statements the app sent for it. */
  async function read(
    url: string,
    user: TestUser,
  ): Promise<{ statusCode: number; body: unknown; statements: string[] }> {
    let response: Awaited<ReturnType<FastifyInstance['inject']>> | undefined;
    const statements = await counting.countDuring(async () => {
      response = await app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${user.token}` },
      });
    });
    return { statusCode: response!.statusCode, body: response!.json(), statements };
  }

  /**
   * The user, after announcing writes that drop them from the app's caches (user row, search
   * list): their next request reads again, the authentication's user lookup included.
   */
  async function withColdCache(user: TestUser): Promise<TestUser> {
    await updateUserPlan(api.testDb.db, user.user.id, user.user.plan);
    announceSearchChange({ userId: user.user.id });
    return user;
  }

  beforeAll(async () => {
    api = await startApiHarness();
    counting = createCountingDatabase(api.testDb.url);
    app = await api.buildVariant({ db: counting.db });
    const db = api.testDb.db;
    const observedAt = new Date(Date.now() - 60_000);
    // Every US store near every other, and a status for every US part at every US store.
    for (const [index, storeId] of US_STORES.entries()) {
      await upsertNeighbours(
        db,
        storeId,
        US_STORES.filter((other) => other !== storeId)
          .slice(0, 8)
          .map((other, rank) => ({ neighbour_store_id: other, distance_miles: 3 + rank * 7.5 })),
        observedAt,
      );
      const snapshots = US_PRODUCTS.flatMap(listUsParts).map((part, partIndex) => ({
        store_id: storeId,
        part_number: part,
        status: (partIndex + index) % 3 === 0 ? ('available' as const) : ('unavailable' as const),
        pickup_quote: null,
        observed_at: observedAt,
      }));
      await upsertSnapshots(db, snapshots);
      await insertAvailabilityEvents(
        db,
        snapshots.slice(0, 20).map((snapshot) => ({
          store_id: snapshot.store_id,
          part_number: snapshot.part_number,
          from_status: 'unavailable',
          to_status: 'available',
          pickup_quote: 'Today',
          observed_at: observedAt,
        })),
      );
    }

    single = await api.createUser('single', 'best');
    full = await api.createUser('full', 'best');
    const one = await insertSearch(db, {
      user_id: single.user.id,
      product_type: US_PRODUCTS[0],
      store_id: US_STORES[0],
    });
    await replacePreferredParts(db, one.id, listUsParts(US_PRODUCTS[0]).slice(0, 2));
    fullSearchIds = [];
    for (let index = 0; index < 10; index += 1) {
      const search = await insertSearch(db, {
        user_id: full.user.id,
        product_type: US_PRODUCTS[index % US_PRODUCTS.length],
        store_id: US_STORES[index % US_STORES.length],
        include_nearby_store_results: index % 4 !== 3,
        show_results_only_for_preferred_models: index % 2 === 0,
        max_distance_miles: index % 3 === 0 ? 20 : null,
      });
      await replacePreferredParts(
        db,
        search.id,
        listUsParts(search.product_type).slice(index % 3, (index % 3) + 2),
      );
      fullSearchIds.push(search.id);
    }
  });
  afterAll(async () => {
    await app.close();
    await counting.destroy();
    await api.close();
  });

  it('lists one search and ten searches in the same few queries', async () => {
    // The first list read of the process loads the models of every product (one statement,
    // kept until the catalog changes); the reads measured come after it.
    await read('/v2/searches/my_searches', await withColdCache(single));
    const one = await read('/v2/searches/my_searches', await withColdCache(single));
    const ten = await read('/v2/searches/my_searches', await withColdCache(full));
    expect(one.statusCode).toBe(200);
    expect(ten.statusCode).toBe(200);
    expect(searchListSchema.parse(one.body)).toHaveLength(1);
    const searches = searchListSchema.parse(ten.body);
    expect(searches.map((search) => search.id)).toEqual(fullSearchIds);
    expect(searches.some((search) => (search.stores_with_inventory ?? 0) > 1)).toBe(true);
    expect(one.statements.length).toBeLessThanOrEqual(MAX_QUERIES_PER_READ);
    expect(ten.statements).toHaveLength(one.statements.length);
    expect(ten.statements.some((statement) => /product_models/.test(statement))).toBe(false);
    // Read again at once: the user comes from memory, and the list, read once more (a list is
    // kept from its second read on), is then answered from memory too.
    const again = await read('/v2/searches/my_searches', full);
    expect(again.body).toEqual(ten.body);
    expect(again.statements).toHaveLength(1);
    const kept = await read('/v2/searches/my_searches', full);
    expect(kept.body).toEqual(ten.body);
    expect(kept.statements).toEqual([]);
  });

  it('reads a search, its inventory and its history in at most three queries each', async () => {
    const searchId = fullSearchIds[1];
    const reads = [
      { url: `/v2/searches/${searchId}`, schema: searchSchema },
      { url: `/v2/searches/${searchId}/inventory`, schema: searchInventorySchema },
      { url: `/v2/searches/${searchId}/history?days=30`, schema: searchHistorySchema },
    ];
    for (const { url, schema } of reads) {
      const result = await read(url, await withColdCache(full));
      expect(result.statusCode, url).toBe(200);
      schema.parse(result.body);
      expect(result.statements.some((sql) => /from "users"/.test(sql))).toBe(true);
      expect(
        result.statements.length,
        `${url}: ${result.statements.join('\n')}`,
      ).toBeLessThanOrEqual(MAX_QUERIES_PER_READ);
    }
    const inventory = searchInventorySchema.parse(
      (await read(`/v2/searches/${searchId}/inventory`, full)).body,
    );
    expect(inventory.stores.length).toBeGreaterThan(1);
    const history = searchHistorySchema.parse(
      (await read(`/v2/searches/${searchId}/history?days=30`, full)).body,
    );
    expect(history.events.length).toBeGreaterThan(0);
  });

  it('reads of many users at once share statements, and each user gets only their own', async () => {
    const db = api.testDb.db;
    const crowd: { user: TestUser; searchIds: string[] }[] = [];
    for (let index = 0; index < 12; index += 1) {
      const user = await api.createUser(`crowd-${index}`, 'best');
      const searchIds: string[] = [];
      for (let count = 0; count <= index % 3; count += 1) {
        const search = await insertSearch(db, {
          user_id: user.user.id,
          product_type: US_PRODUCTS[(index + count) % US_PRODUCTS.length],
          store_id: US_STORES[(index * 3 + count) % US_STORES.length],
        });
        searchIds.push(search.id);
      }
      crowd.push({ user, searchIds });
      // Verified once, so the burst below meets the user and list reads only.
      await read('/v2/account', user);
    }
    for (const member of crowd) await withColdCache(member.user);
    let lists: Awaited<ReturnType<FastifyInstance['inject']>>[] = [];
    const listStatements = await counting.countDuring(async () => {
      lists = await Promise.all(
        crowd.map((member) =>
          app.inject({
            method: 'GET',
            url: '/v2/searches/my_searches',
            headers: { authorization: `Bearer ${member.user.token}` },
          }),
        ),
      );
    });
    for (const [index, member] of crowd.entries()) {
      expect(lists[index].statusCode).toBe(200);
      const ids = searchListSchema.parse(lists[index].json()).map((search) => search.id);
      expect(ids).toEqual(member.searchIds);
    }
    const userReads = listStatements.filter((text) => /from "users"/.test(text));
    const listReads = listStatements.filter((text) => /from "searches"/.test(text));
    expect(userReads.length).toBeGreaterThan(0);
    expect(userReads.length).toBeLessThan(crowd.length / 2);
    expect(listReads.length).toBeGreaterThan(0);
    expect(listReads.length).toBeLessThan(crowd.length / 2);

    // Inventory reads together, one of them asking for someone else's search.
    for (const member of crowd) await withColdCache(member.user);
    const asks = crowd.map((member, index) => ({
      member,
      searchId: index === 5 ? crowd[6].searchIds[0] : member.searchIds[0],
    }));
    let inventories: Awaited<ReturnType<FastifyInstance['inject']>>[] = [];
    const inventoryStatements = await counting.countDuring(async () => {
      inventories = await Promise.all(
        asks.map(({ member, searchId }) =>
          app.inject({
            method: 'GET',
            url: `/v2/searches/${searchId}/inventory`,
            headers: { authorization: `Bearer ${member.user.token}` },
          }),
        ),
      );
    });
    for (const [index, response] of inventories.entries()) {
      if (index === 5) {
        expect(response.statusCode).toBe(404);
      } else {
        expect(response.statusCode, response.body).toBe(200);
        searchInventorySchema.parse(response.json());
      }
    }
    const inventoryReads = inventoryStatements.filter((text) => /from "searches"/.test(text));
    expect(inventoryReads.length).toBeGreaterThan(0);
    expect(inventoryReads.length).toBeLessThan(crowd.length / 2);
  });

  it('creates a new user on the first request only and then reads nothing about them', async () => {
    const token = await api.idp.issueAccessToken({
      subject: 'subject-newcomer',
      email: 'newcomer@example.com',
    });
    const newcomer = { user: single.user, token };
    const first = await read('/v2/account', newcomer);
    expect(first.statusCode).toBe(200);
    expect(first.statements.filter((sql) => /^insert into "users"/i.test(sql))).toHaveLength(1);
    const second = await read('/v2/account', newcomer);
    expect(second.statusCode).toBe(200);
    expect(second.statements).toEqual([]);
    const again = await read('/v2/searches/my_searches', full);
    expect(again.statements.filter((sql) => /"users"/.test(sql))).toEqual([]);
  });
});
