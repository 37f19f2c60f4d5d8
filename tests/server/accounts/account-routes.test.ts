import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountSchema } from '#shared/api/account.ts';
import { startApiHarness, type ApiHarness } from '#tests/helpers/api-harness.ts';

describe('GET and PATCH /v2/account', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(async () => api.close());

  it('returns the signed-in account with its plan capabilities', async () => {
    const alice = await api.createUser('alice', 'best');
    const response = await api.call({ method: 'GET', url: '/v2/account', as: alice });
    expect(response.statusCode).toBe(200);
    expect(accountSchema.parse(response.json())).toEqual({
      email: 'alice@example.com',
      phone_number: null,
      enable_notifications: true,
      plan: 'best',
      capabilities: {
        text_notifications_allowed: true,
        web_searches_allowed: true,
        search_limit: 10,
      },
      time_zone: null,
      quiet_hours: {
        enabled: false,
        start: '22:00',
        end: '07:00',
        time_zone: 'UTC',
        always_for_preferred_at_my_store: false,
      },
    });
  });

  it('creates the user row on the first authenticated call, keyed by issuer and subject', async () => {
    const token = await api.idp.issueAccessToken({
      subject: 'first-timer',
      email: 'first@example.com',
    });
    const first = await api.call({
      method: 'GET',
      url: '/v2/account',
      as: { token, user: undefined as never },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ email: 'first@example.com', plan: 'good' });
    const rows = await api.testDb.db
      .selectFrom('users')
      .selectAll()
      .where('subject', '=', 'first-timer')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].issuer).toBe(api.idp.issuer);
  });

  it('refuses a missing, expired or foreign token with 401', async () => {
    expect((await api.call({ method: 'GET', url: '/v2/account' })).statusCode).toBe(401);
    const expired = await api.idp.issueAccessToken({ subject: 'alice', expiresInSeconds: -120 });
    const foreign = await api.idp.issueForeignToken({ subject: 'alice' });
    const wrongAudience = await api.idp.issueAccessToken({
      subject: 'alice',
      audience: 'https://other.api',
    });
    for (const token of [expired, foreign, wrongAudience, 'not-a-jwt']) {
      const response = await api.call({
        method: 'GET',
        url: '/v2/account',
        as: { token, user: undefined as never },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({
        code: 'unauthenticated',
        reason: 'Please log in to continue.',
      });
    }
  });

  it('saves email, E.164 phone and the notifications switch', async () => {
    const bob = await api.createUser('bob', 'better');
    const response = await api.call({
      method: 'PATCH',
      url: '/v2/account',
      as: bob,
      body: {
        email: 'Bob.New@example.com',
        phone_number: '+14155550123',
        enable_notifications: false,
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      email: 'Bob.New@example.com',
      phone_number: '+14155550123',
      enable_notifications: false,
    });
    const again = await api.call({ method: 'GET', url: '/v2/account', as: bob });
    expect(again.json()).toMatchObject({
      phone_number: '+14155550123',
      enable_notifications: false,
    });
  });

  it('clears the phone number when it is sent empty', async () => {
    const carol = await api.createUser('carol', 'best');
    await api.call({
      method: 'PATCH',
      url: '/v2/account',
      as: carol,
      body: {
        email: 'carol@example.com',
        phone_number: '+442071234567',
        enable_notifications: true,
      },
    });
    const cleared = await api.call({
      method: 'PATCH',
      url: '/v2/account',
      as: carol,
      body: { email: 'carol@example.com', phone_number: '', enable_notifications: true },
    });
    expect(cleared.json()).toMatchObject({ phone_number: null });
  });

  it('rejects a bad phone number or email with 400 naming the field, keeping the saved values', async () => {
    const dave = await api.createUser('dave', 'best');
    const badPhone = await api.call({
      method: 'PATCH',
      url: '/v2/account',
      as: dave,
      body: { email: 'dave@example.com', phone_number: '12345', enable_notifications: true },
    });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json()).toMatchObject({ code: 'invalid_input', field: 'phone_number' });
    const badEmail = await api.call({
      method: 'PATCH',
      url: '/v2/account',
      as: dave,
      body: { email: 'not-an-email', phone_number: '', enable_notifications: true },
    });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json()).toMatchObject({ field: 'email' });
    const missing = await api.call({
      method: 'PATCH',
      url: '/v2/account',
      as: dave,
      body: { email: 'dave@example.com' },
    });
    expect(missing.statusCode).toBe(400);
    expect((await api.call({ method: 'GET', url: '/v2/account', as: dave })).json()).toMatchObject({
      email: 'dave@example.com',
      phone_number: null,
    });
  });

  it('refuses an unauthenticated PATCH with 401', async () => {
    const response = await api.call({
      method: 'PATCH',
      url: '/v2/account',
      body: { email: 'x@example.com', phone_number: '', enable_notifications: true },
    });
    expect(response.statusCode).toBe(401);
  });
});
