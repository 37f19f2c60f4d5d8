import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfigSchema } from '#shared/api/app-config.ts';
import { buildApp } from '#server/app.ts';
import { createDatabase } from '#server/db/database.ts';
import { createTokenVerifier } from '#server/http/auth/index.ts';
import { startApiHarness, type ApiHarness } from '#tests/helpers/api-harness.ts';

describe('billing calls before billing is configured', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(async () => api.close());

  it('answers post_checkout with 503 billing_not_configured once its input is valid', async () => {
    const response = await api.call({
      method: 'POST',
      url: '/v2/account/post_checkout',
      body: { session_id: 'cs_test_123' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      code: 'billing_not_configured',
      reason: "Subscriptions aren't set up on this Shelfwatch installation yet.",
      message: expect.any(String) as string,
    });
    const bad = await api.call({ method: 'POST', url: '/v2/account/post_checkout', body: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'session_id' });
  });

  it('validates the checkout lookup key before answering 503', async () => {
    const bad = await api.call({
      method: 'POST',
      url: '/v2/account/create-checkout-session',
      body: { lookup_key: 'iw-gold', auth0_id: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'lookup_key' });
    const good = await api.call({
      method: 'POST',
      url: '/v2/account/create-checkout-session',
      body: { lookup_key: 'iw-premium-yearly', auth0_id: 'auth0|abc' },
    });
    expect(good.statusCode).toBe(503);
    expect(good.json()).toMatchObject({ code: 'billing_not_configured' });
  });

  it('needs a token for the billing portal, then answers 503', async () => {
    expect(
      (await api.call({ method: 'POST', url: '/v2/account/create-portal-session', body: {} }))
        .statusCode,
    ).toBe(401);
    const user = await api.createUser('payer', 'better');
    const response = await api.call({
      method: 'POST',
      url: '/v2/account/create-portal-session',
      as: user,
      body: {},
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'billing_not_configured' });
  });

  it('answers Stripe webhooks with 503 billing_not_configured, so Stripe keeps retrying', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/v2/billing/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: JSON.stringify({ id: 'evt_1', object: 'event', type: 'customer.created' }),
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'billing_not_configured' });
  });
});

describe('service endpoints', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(async () => api.close());

  it('reports health once the database answers', async () => {
    const response = await api.call({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('serves the website configuration with the login provider as an http domain', async () => {
    const config = appConfigSchema.parse(
      (await api.call({ method: 'GET', url: '/app-config.json' })).json(),
    );
    expect(config.auth.domain).toBe(api.idp.issuer.replace(/\/$/, ''));
    expect(config.isBillingConfigured).toBe(false);
  });

  it('hides internal error details behind a 500 with a generic message', async () => {
    const closing = createDatabase(api.testDb.url, 1);
    const broken = await buildApp({
      db: closing,
      verifyToken: () => Promise.reject(new Error('unused')),
      website: appConfigSchema.parse(
        (await api.call({ method: 'GET', url: '/app-config.json' })).json(),
      ),
      corsOrigins: [],
      logLevel: 'silent',
    });
    // The pool goes away after start-up, so the next query fails inside the handler.
    await closing.destroy();
    const response = await broken.inject({ method: 'GET', url: '/v2/products' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      code: 'internal_error',
      reason: 'Something went wrong on our side. Please try again in a moment.',
      message: 'Internal server error',
    });
    expect(response.body).not.toContain('pool');
    await broken.close();
  });

  it('answers 503, not 401, when the login provider keys cannot be fetched', async () => {
    const unreachableIssuer = createTokenVerifier({
      issuer: 'http://127.0.0.1:1/',
      audience: api.idp.audience,
      allowedClientIds: api.idp.allowedClientIds,
    });
    const app = await buildApp({
      db: api.testDb.db,
      verifyToken: unreachableIssuer,
      website: appConfigSchema.parse(
        (await api.call({ method: 'GET', url: '/app-config.json' })).json(),
      ),
      corsOrigins: [],
      logLevel: 'silent',
    });
    const token = await api.idp.issueAccessToken({ subject: 'someone' });
    const response = await app.inject({
      method: 'GET',
      url: '/v2/account',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      code: 'login_unavailable',
      reason: 'Signing in is unavailable right now. Please try again in a few minutes.',
    });
    await app.close();
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const user = await api.createUser('sloppy', 'best');
    const response = await api.app.inject({
      method: 'POST',
      url: '/v2/searches',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      payload: '{"product_type": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_input', field: 'body' });
  });
});
