import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchListSchema } from '#shared/api/searches.ts';
import { applyPlanChange } from '#server/accounts/index.ts';
import { listGroupDemand } from '#server/db/repositories/group-demand-repository.ts';
import { findUserById, updateUserAccount } from '#server/db/repositories/users-repository.ts';
import { syncPollTargets } from '#server/db/repositories/watch-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { checkEligibility } from '#server/notify/eligibility.ts';
import { createUserSearch, deleteUserSearch } from '#server/searches/searches-service.ts';
import { enqueueRestockAlerts } from '#server/watch/match-alerts.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';

// Stores of the seeded catalog, one per search so each search is its own poll group.
const STORES = ['R095', 'R075', 'R217', 'R033', 'R029', 'R231'];
const PRODUCT = 'iphone16pro';

describe('plan changes pause and resume searches', () => {
  let api: ApiHarness;
  let seq = 0;

  /** A user on `plan` with `count` searches created in order, each preferring one model. */
  async function createUserWithSearches(
    plan: 'better' | 'best',
    count: number,
  ): Promise<{ person: TestUser; searchIds: string[] }> {
    seq += 1;
    const person = await api.createUser(`shopper${seq}`, plan);
    // Text updates need a phone number on the account; Premium searches send texts.
    if (plan === 'best') {
      await updateUserAccount(api.testDb.db, person.user.id, {
        email: person.user.email,
        phone_number: '+14155550123',
        enable_notifications: true,
      });
    }
    const user = await readUser(person.user.id);
    const searchIds: string[] = [];
    for (const storeId of STORES.slice(0, count)) {
      const search = await createUserSearch(api.testDb.db, user, {
        product_type: PRODUCT,
        store_id: storeId,
        send_email_updates: true,
        send_text_updates: plan === 'best',
      });
      await api.testDb.db
        .insertInto('search_preferred_models')
        .values({ search_id: search.id, part_number: search.product_models[0].part_number })
        .execute();
      searchIds.push(search.id);
    }
    return { person, searchIds };
  }

  async function readPaused(userId: string): Promise<Record<string, boolean>> {
    const rows = await api.testDb.db
      .selectFrom('searches')
      .select(['id', 'paused_at'])
      .where('user_id', '=', userId)
      .execute();
    return Object.fromEntries(rows.map((row) => [row.id, row.paused_at !== null]));
  }

  async function readUser(userId: string): Promise<UserRow> {
    const user = await findUserById(api.testDb.db, userId);
    if (user === undefined) throw new Error('user vanished');
    return user;
  }

  beforeAll(async () => {
    api = await startApiHarness();
    const stores = await api.testDb.db.selectFrom('stores').select('store_id').execute();
    const known = new Set(stores.map((store) => store.store_id));
    const missing = STORES.filter((store) => !known.has(store));
    if (missing.length > 0) throw new Error(`Seeded catalog lacks ${missing.join(', ')}`);
  });
  afterAll(async () => api.close());

  it('a downgrade pauses the newest searches over the limit and keeps them', async () => {
    const { person, searchIds } = await createUserWithSearches('best', 6);
    const result = await applyPlanChange(api.testDb.db, person.user.id, 'better');
    expect(result?.pausedSearchIds).toEqual([searchIds[5]]);
    expect((await readUser(person.user.id)).plan).toBe('better');
    expect(await readPaused(person.user.id)).toEqual(
      Object.fromEntries(searchIds.map((id, index) => [id, index === 5])),
    );

    const list = await api.call({
      method: 'GET',
      url: '/v2/searches/my_searches',
      as: { ...person, user: await readUser(person.user.id) },
    });
    const searches = searchListSchema.parse(list.json());
    expect(searches).toHaveLength(6);
    expect(
      searches.filter((search) => search.is_paused === true).map((search) => search.id),
    ).toEqual([searchIds[5]]);
  });

  it('an upgrade resumes paused searches, oldest first, up to the new limit', async () => {
    const { person, searchIds } = await createUserWithSearches('best', 6);
    await applyPlanChange(api.testDb.db, person.user.id, 'good');
    expect(Object.values(await readPaused(person.user.id)).filter(Boolean)).toHaveLength(5);

    const toBetter = await applyPlanChange(api.testDb.db, person.user.id, 'better');
    expect(toBetter?.resumedSearchIds).toEqual(searchIds.slice(1, 5));
    expect((await readPaused(person.user.id))[searchIds[5]]).toBe(true);

    const toBest = await applyPlanChange(api.testDb.db, person.user.id, 'best');
    expect(toBest?.resumedSearchIds).toEqual([searchIds[5]]);
    expect(Object.values(await readPaused(person.user.id)).some(Boolean)).toBe(false);
  });

  it('deleting an active search frees its place for the oldest paused one', async () => {
    const { person, searchIds } = await createUserWithSearches('best', 6);
    await applyPlanChange(api.testDb.db, person.user.id, 'better');
    const user = await readUser(person.user.id);
    await deleteUserSearch(api.testDb.db, user, searchIds[0]);
    expect((await readPaused(person.user.id))[searchIds[5]]).toBe(false);
  });

  it('paused searches are not polled, not counted as demand and not alerted', async () => {
    const { person, searchIds } = await createUserWithSearches('best', 6);
    await updateUserAccount(api.testDb.db, person.user.id, {
      email: person.user.email,
      phone_number: '+14155550123',
      enable_notifications: true,
    });
    await applyPlanChange(api.testDb.db, person.user.id, 'better');
    const pausedStore = STORES[5];
    // Other tests' users watch the same stores; this one alone is left as the only watcher.
    await api.testDb.db
      .updateTable('searches')
      .set({ paused_at: new Date() })
      .where('store_id', '=', pausedStore)
      .where('user_id', '!=', person.user.id)
      .execute();

    await syncPollTargets(api.testDb.db, new Date());
    const targets = await api.testDb.db.selectFrom('poll_targets').select('store_id').execute();
    expect(targets.map((target) => target.store_id)).not.toContain(pausedStore);
    expect(targets.map((target) => target.store_id)).toContain(STORES[0]);
    const demand = await listGroupDemand(api.testDb.db);
    expect(demand.map((row) => row.store_id)).not.toContain(pausedStore);

    const [search] = await api.testDb.db
      .selectFrom('searches')
      .selectAll()
      .where('id', '=', searchIds[5])
      .execute();
    const part = (
      await api.testDb.db
        .selectFrom('search_preferred_models')
        .select('part_number')
        .where('search_id', '=', search.id)
        .executeTakeFirstOrThrow()
    ).part_number;
    const restock = (eventId: string) => ({
      eventId,
      storeId: pausedStore,
      partNumber: part,
      pickupQuote: 'Today',
      observedAt: new Date(),
      productId: PRODUCT,
      countryCode: 'US',
    });
    expect(await enqueueRestockAlerts(api.testDb.db, restock('1'), 0)).toBe(0);
    expect(checkEligibility('email', await readUser(person.user.id), search)).toEqual({
      isAllowed: false,
      reason: 'search_paused',
    });

    // Resumed, the same search alerts and is polled again.
    await applyPlanChange(api.testDb.db, person.user.id, 'best');
    expect(await enqueueRestockAlerts(api.testDb.db, restock('2'), 0)).toBeGreaterThan(0);
    await syncPollTargets(api.testDb.db, new Date());
    const resumed = await api.testDb.db.selectFrom('poll_targets').select('store_id').execute();
    expect(resumed.map((target) => target.store_id)).toContain(pausedStore);
  });

  it('text alerts stop when Premium ends, and the account no longer allows them', async () => {
    const { person, searchIds } = await createUserWithSearches('best', 2);
    await updateUserAccount(api.testDb.db, person.user.id, {
      email: person.user.email,
      phone_number: '+14155550123',
      enable_notifications: true,
    });
    const [before] = await api.testDb.db
      .selectFrom('searches')
      .selectAll()
      .where('id', '=', searchIds[0])
      .execute();
    expect(checkEligibility('text', await readUser(person.user.id), before).isAllowed).toBe(true);

    const result = await applyPlanChange(api.testDb.db, person.user.id, 'better');
    expect(result?.textOffSearchIds.sort()).toEqual([...searchIds].sort());
    const [after] = await api.testDb.db
      .selectFrom('searches')
      .selectAll()
      .where('id', '=', searchIds[0])
      .execute();
    expect(after.send_text_updates).toBe(false);
    // A text alert enqueued while Premium was on is suppressed when it is delivered after.
    expect(checkEligibility('text', await readUser(person.user.id), before)).toEqual({
      isAllowed: false,
      reason: 'plan_excludes_text',
    });
    const account = await api.call({
      method: 'GET',
      url: '/v2/account',
      as: { ...person, user: await readUser(person.user.id) },
    });
    expect(account.json()).toMatchObject({
      plan: 'better',
      capabilities: { text_notifications_allowed: false, search_limit: 5 },
    });
  });
});
