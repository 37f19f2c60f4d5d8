import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFinishSetupLink,
  deleteAccount,
  provisionAccount,
  type LoginDirectory,
} from '#server/accounts/index.ts';
import type { Db } from '#server/db/database.ts';
import type { UserRow } from '#server/db/schema.ts';
import { createUserSearch } from '#server/searches/searches-service.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';

/** Rows of each table that belong to a user (directly or through their login or searches). */
async function countRows(db: Db, user: UserRow): Promise<Record<string, number>> {
  const count = async (query: Promise<{ count: number }>): Promise<number> =>
    Number((await query).count);
  return {
    users: await count(
      db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow(),
    ),
    searches: await count(
      db
        .selectFrom('searches')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow(),
    ),
    preferredModels: await count(
      db
        .selectFrom('search_preferred_models as p')
        .innerJoin('searches as s', 's.id', 'p.search_id')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('s.user_id', '=', user.id)
        .executeTakeFirstOrThrow(),
    ),
    pushSubscriptions: await count(
      db
        .selectFrom('push_subscriptions')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow(),
    ),
    outbox: await count(
      db
        .selectFrom('alert_outbox')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow(),
    ),
    login: await count(
      db
        .selectFrom('idp_accounts')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('id', '=', user.subject)
        .executeTakeFirstOrThrow(),
    ),
    oneTimeLinks: await count(
      db
        .selectFrom('account_tokens')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('idp_account_id', '=', user.subject)
        .executeTakeFirstOrThrow(),
    ),
    loginSessions: await count(
      db
        .selectFrom('idp_payloads')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where((eb) => eb(eb.ref('payload', '->>').key('accountId'), '=', user.subject))
        .executeTakeFirstOrThrow(),
    ),
  };
}

const FULL = {
  users: 1,
  searches: 2,
  preferredModels: 2,
  pushSubscriptions: 1,
  outbox: 2,
  login: 1,
  oneTimeLinks: 1,
  loginSessions: 1,
};
const NONE = Object.fromEntries(Object.keys(FULL).map((key) => [key, 0]));

describe('deleting an account', () => {
  let api: ApiHarness;
  let login: LoginDirectory;

  /** An embedded login with a user on Premium, two searches, a browser, alerts, a session. */
  async function createFullAccount(name: string): Promise<TestUser> {
    const { user } = await provisionAccount(
      api.testDb.db,
      { login },
      { email: `${name}@example.com`, plan: 'best' },
    );
    await createFinishSetupLink(api.testDb.db, { login, publicUrl: 'http://localhost:3000' }, user);
    for (const storeId of ['R095', 'R075']) {
      const search = await createUserSearch(api.testDb.db, user, {
        product_type: 'iphone16pro',
        store_id: storeId,
      });
      const model = search.product_models[0];
      await api.testDb.db
        .insertInto('search_preferred_models')
        .values({ search_id: search.id, part_number: model.part_number })
        .execute();
      await api.testDb.db
        .insertInto('alert_outbox')
        .values({
          idempotency_key: `${name}-${storeId}`,
          channel: 'email',
          user_id: user.id,
          search_id: search.id,
          payload: JSON.stringify({ storeId }),
        })
        .execute();
    }
    await api.testDb.db
      .insertInto('push_subscriptions')
      .values({
        user_id: user.id,
        endpoint: `https://push.example/${name}`,
        keys: JSON.stringify({ p256dh: 'key', auth: 'auth' }),
      })
      .execute();
    await api.testDb.db
      .insertInto('idp_payloads')
      .values({
        id: `session-${name}`,
        kind: 'Session',
        payload: JSON.stringify({ accountId: user.subject }),
        grant_id: null,
        user_code: null,
        uid: null,
        expires_at: null,
        consumed_at: null,
      })
      .execute();
    const token = await api.idp.issueAccessToken({
      subject: user.subject,
      email: user.email ?? '',
    });
    return { user, token };
  }

  beforeAll(async () => {
    api = await startApiHarness();
    login = { kind: 'embedded', issuer: api.idp.issuer };
  });
  afterAll(async () => api.close());

  it('DELETE /v2/account removes everything of the signed-in account and nothing of another', async () => {
    const alice = await createFullAccount('alice');
    const bob = await createFullAccount('bob');
    expect(await countRows(api.testDb.db, alice.user)).toEqual(FULL);
    // Fill the in-memory user and search list caches first.
    expect(
      (await api.call({ method: 'GET', url: '/v2/searches/my_searches', as: alice })).json(),
    ).toHaveLength(2);

    const response = await api.call({ method: 'DELETE', url: '/v2/account', as: alice });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    expect(await countRows(api.testDb.db, alice.user)).toEqual(NONE);
    expect(await countRows(api.testDb.db, bob.user)).toEqual(FULL);
    const bobsSearches = await api.call({
      method: 'GET',
      url: '/v2/searches/my_searches',
      as: bob,
    });
    expect(bobsSearches.json()).toHaveLength(2);
  });

  it('drops the cached user at once, so a leftover token no longer sees the deleted plan', async () => {
    const carol = await createFullAccount('carol');
    expect((await api.call({ method: 'GET', url: '/v2/account', as: carol })).json()).toMatchObject(
      {
        plan: 'best',
      },
    );
    await api.call({ method: 'DELETE', url: '/v2/account', as: carol });
    const after = await api.call({ method: 'GET', url: '/v2/searches/my_searches', as: carol });
    expect(after.statusCode).toBe(403);
  });

  it('cancels the subscription first, and deletes nothing when that fails', async () => {
    const dave = await createFullAccount('dave');
    const cancelled: string[] = [];
    await expect(
      deleteAccount(api.testDb.db, dave.user, {
        login,
        cancelSubscriptions: () => Promise.reject(new Error('Stripe is down')),
      }),
    ).rejects.toMatchObject({ step: 'cancel-subscriptions' });
    expect(await countRows(api.testDb.db, dave.user)).toEqual(FULL);

    await deleteAccount(api.testDb.db, dave.user, {
      login,
      cancelSubscriptions: async (user) => {
        cancelled.push(user.id);
        // The account is still whole while the subscription is being cancelled.
        expect((await countRows(api.testDb.db, user)).searches).toBe(2);
      },
    });
    expect(cancelled).toEqual([dave.user.id]);
    expect(await countRows(api.testDb.db, dave.user)).toEqual(NONE);
  });

  it('answers 401 without a token and deletes nothing', async () => {
    const erin = await createFullAccount('erin');
    const response = await api.call({ method: 'DELETE', url: '/v2/account' });
    expect(response.statusCode).toBe(401);
    expect(await countRows(api.testDb.db, erin.user)).toEqual(FULL);
  });
});
