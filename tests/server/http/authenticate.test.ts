import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountSchema } from '#shared/api/index.ts';
import { updateUserPlan } from '#server/db/repositories/users-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import {
  createUserCache,
  createVerifiedTokenCache,
  USER_CACHE_MAX_AGE_MS,
} from '#server/http/authenticate.ts';
import { startApiHarness, type ApiHarness } from '#tests/helpers/api-harness.ts';

const NOW = 1_750_000_000_000;

/** A user row for `subject`, as the loader would read it. */
function makeUser(subject: string, plan: UserRow['plan'] = 'good'): UserRow {
  return {
    id: `id-${subject}`,
    issuer: 'https://issuer.example/',
    subject,
    email: null,
    phone_number: null,
    enable_notifications: true,
    plan,
    is_text_opted_out: false,
    stripe_customer_id: null,
    quiet_hours_enabled: false,
    quiet_hours_start: '22:00',
    quiet_hours_end: '07:00',
    quiet_hours_time_zone: 'UTC',
    quiet_hours_preferred_at_store: false,
    time_zone: null,
    created_at: new Date(0),
    updated_at: new Date(0),
  };
}

function identityOf(subject: string, expiresAt = NOW + 3600_000) {
  return { issuer: 'https://issuer.example/', subject, expiresAt };
}

describe('the user cache', () => {
  it('loads a user once per identity, sharing one load between concurrent requests', async () => {
    const load = vi.fn(async (identity: { subject: string }) => makeUser(identity.subject));
    const cache = createUserCache(load);
    const users = await Promise.all([
      cache.resolve(identityOf('a'), NOW),
      cache.resolve(identityOf('a'), NOW),
      cache.resolve(identityOf('a'), NOW + 1000),
    ]);
    await cache.resolve(identityOf('b'), NOW);
    expect(users.map((user) => user.id)).toEqual(['id-a', 'id-a', 'id-a']);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps a user no longer than the token’s expiry or the maximum age', async () => {
    const load = vi.fn(async (identity: { subject: string }) => makeUser(identity.subject));
    // Background refreshes drawn at the maximum age itself: only expiry reloads here.
    const cache = createUserCache(load, { random: () => 1 });
    await cache.resolve(identityOf('short', NOW + 5_000), NOW);
    await cache.resolve(identityOf('short', NOW + 5_000), NOW + 4_999);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.resolve(identityOf('short', NOW + 60_000), NOW + 5_000);
    expect(load).toHaveBeenCalledTimes(2);

    await cache.resolve(identityOf('long'), NOW);
    await cache.resolve(identityOf('long'), NOW + USER_CACHE_MAX_AGE_MS - 1);
    expect(load).toHaveBeenCalledTimes(3);
    await cache.resolve(identityOf('long'), NOW + USER_CACHE_MAX_AGE_MS);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('reads a busy user again in the background from half the maximum age, serving the kept row meanwhile', async () => {
    let plan: UserRow['plan'] = 'good';
    const load = vi.fn(async (identity: { subject: string }) => makeUser(identity.subject, plan));
    const cache = createUserCache(load, { random: () => 0 });
    await cache.resolve(identityOf('busy'), NOW);
    plan = 'best';
    expect(
      (await cache.resolve(identityOf('busy'), NOW + USER_CACHE_MAX_AGE_MS / 2 - 1)).plan,
    ).toBe('good');
    expect(load).toHaveBeenCalledTimes(1);
    expect((await cache.resolve(identityOf('busy'), NOW + USER_CACHE_MAX_AGE_MS / 2)).plan).toBe(
      'good',
    );
    expect(load).toHaveBeenCalledTimes(2);
    await expect
      .poll(
        async () => (await cache.resolve(identityOf('busy'), NOW + USER_CACHE_MAX_AGE_MS / 2)).plan,
      )
      .toBe('best');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps no background read that a change of the user overtook', async () => {
    let plan: UserRow['plan'] = 'good';
    let finishLoad: (() => void) | undefined;
    const cache = createUserCache(
      async (identity) => {
        const row = makeUser(identity.subject, plan);
        if (plan === 'better') await new Promise<void>((resolve) => (finishLoad = resolve));
        return row;
      },
      { random: () => 0 },
    );
    await cache.resolve(identityOf('a'), NOW);
    plan = 'better';
    await cache.resolve(identityOf('a'), NOW + USER_CACHE_MAX_AGE_MS / 2);
    // The row changes in this process while the background read is still out.
    plan = 'best';
    cache.forget('id-a');
    finishLoad?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await cache.resolve(identityOf('a'), NOW + USER_CACHE_MAX_AGE_MS / 2)).plan).toBe(
      'best',
    );
  });

  it('drops the least recently used identity beyond its size', async () => {
    const load = vi.fn(async (identity: { subject: string }) => makeUser(identity.subject));
    const cache = createUserCache(load, { maxEntries: 2 });
    await cache.resolve(identityOf('a'), NOW);
    await cache.resolve(identityOf('b'), NOW);
    await cache.resolve(identityOf('a'), NOW);
    await cache.resolve(identityOf('c'), NOW);
    expect(cache.countEntries()).toBe(2);
    await cache.resolve(identityOf('a'), NOW);
    expect(load).toHaveBeenCalledTimes(3);
    await cache.resolve(identityOf('b'), NOW);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('forgets a user whose row changed, and does not keep a failed load', async () => {
    let plan: UserRow['plan'] = 'good';
    let isFailing = true;
    const cache = createUserCache(async (identity) => {
      if (isFailing) throw new Error('database unavailable');
      return makeUser(identity.subject, plan);
    });
    await expect(cache.resolve(identityOf('a'), NOW)).rejects.toThrow('database unavailable');
    isFailing = false;
    expect((await cache.resolve(identityOf('a'), NOW)).plan).toBe('good');
    plan = 'best';
    expect((await cache.resolve(identityOf('a'), NOW)).plan).toBe('good');
    cache.forget('id-a');
    expect((await cache.resolve(identityOf('a'), NOW)).plan).toBe('best');
  });
});

describe('the verified token cache', () => {
  function createCountingVerifier(expiresAt: number | undefined) {
    const verifier = vi.fn(async (token: string) => {
      if (token.startsWith('bad')) throw new Error('refused');
      return { issuer: 'https://issuer.example/', subject: token, expiresAt };
    });
    return verifier;
  }

  it('checks an accepted token once until its expiry, then again', async () => {
    let clock = NOW;
    const verifier = createCountingVerifier(NOW + 60_000);
    const verify = createVerifiedTokenCache(verifier, { now: () => clock });
    await expect(verify('token-a')).resolves.toMatchObject({ subject: 'token-a' });
    clock = NOW + 59_999;
    await expect(verify('token-a')).resolves.toMatchObject({ subject: 'token-a' });
    expect(verifier).toHaveBeenCalledTimes(1);
    clock = NOW + 60_000;
    await verify('token-a');
    expect(verifier).toHaveBeenCalledTimes(2);
  });

  it('never remembers a refused token, nor one without a known expiry', async () => {
    const refusing = createCountingVerifier(NOW + 60_000);
    const verify = createVerifiedTokenCache(refusing, { now: () => NOW });
    await expect(verify('bad-token')).rejects.toThrow('refused');
    await expect(verify('bad-token')).rejects.toThrow('refused');
    expect(refusing).toHaveBeenCalledTimes(2);

    const withoutExpiry = createCountingVerifier(undefined);
    const verifyEach = createVerifiedTokenCache(withoutExpiry, { now: () => NOW });
    await verifyEach('token-b');
    await verifyEach('token-b');
    expect(withoutExpiry).toHaveBeenCalledTimes(2);
  });

  it('tells tokens apart exactly and keeps a bounded number', async () => {
    const verifier = createCountingVerifier(NOW + 60_000);
    const verify = createVerifiedTokenCache(verifier, { maxEntries: 2, now: () => NOW });
    await verify('token-a');
    await expect(verify('token-a ')).resolves.toMatchObject({ subject: 'token-a ' });
    await verify('token-c');
    expect(verifier).toHaveBeenCalledTimes(3);
    await verify('token-a');
    expect(verifier).toHaveBeenCalledTimes(4);
  });
});

describe('signed-in requests and plan changes', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(async () => api.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  async function readPlan(as: Awaited<ReturnType<ApiHarness['createUser']>>): Promise<string> {
    const response = await api.call({ method: 'GET', url: '/v2/account', as });
    expect(response.statusCode, response.body).toBe(200);
    return accountSchema.parse(response.json()).plan;
  }

  it('sees a plan change made in this process on the very next request', async () => {
    const shopper = await api.createUser('upgrader', 'good');
    expect(await readPlan(shopper)).toBe('good');
    const refused = await api.call({ method: 'GET', url: '/v2/searches/my_searches', as: shopper });
    expect(refused.statusCode).toBe(403);

    await updateUserPlan(api.testDb.db, shopper.user.id, 'better');
    expect(await readPlan(shopper)).toBe('better');
    const allowed = await api.call({ method: 'GET', url: '/v2/searches/my_searches', as: shopper });
    expect(allowed.statusCode).toBe(200);
  });

  it('sees a plan change made by another process (set-plan) within the cache’s maximum age', async () => {
    const shopper = await api.createUser('elsewhere', 'best');
    expect(await readPlan(shopper)).toBe('best');
    // What `shelfwatch set-plan` does from its own process: no announcement reaches this one.
    await sql`update users set plan = 'good' where id = ${shopper.user.id}`.execute(api.testDb.db);
    expect(await readPlan(shopper)).toBe('best');

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + USER_CACHE_MAX_AGE_MS });
    expect(await readPlan(shopper)).toBe('good');
  });

  it('shows the account form’s saved values on the next read', async () => {
    const shopper = await api.createUser('form', 'best');
    expect(await readPlan(shopper)).toBe('best');
    const saved = await api.call({
      method: 'PATCH',
      url: '/v2/account',
      as: shopper,
      body: { email: 'new@example.com', phone_number: '', enable_notifications: false },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const read = await api.call({ method: 'GET', url: '/v2/account', as: shopper });
    expect(accountSchema.parse(read.json())).toMatchObject({
      email: 'new@example.com',
      enable_notifications: false,
    });
  });
});
