import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutSessionResponseSchema,
  portalSessionResponseSchema,
  postCheckoutResponseSchema,
} from '#shared/api/billing.ts';
import { appConfigSchema } from '#shared/api/app-config.ts';
import { findUsersByEmail } from '#server/db/repositories/users-repository.ts';
import type { TestUser } from '#tests/helpers/api-harness.ts';
import { SITE_URL, startBillingFixture, type BillingFixture } from './billing-fixture.ts';

describe('checkout, portal and post_checkout through the real stripe client', () => {
  let fixture: BillingFixture;
  beforeAll(async () => {
    fixture = await startBillingFixture();
  });
  afterAll(async () => fixture.close());

  /** Starts a checkout of `lookupKey` and answers the stand-in's session id. */
  async function startCheckout(lookupKey: string, auth0Id: string): Promise<string> {
    const response = await fixture.call({
      method: 'POST',
      url: '/v2/account/create-checkout-session',
      body: { lookup_key: lookupKey, auth0_id: auth0Id },
    });
    expect(response.statusCode, response.body).toBe(200);
    const url = new URL(checkoutSessionResponseSchema.parse(response.json()).checkout_url);
    return url.pathname.split('/').at(-1) ?? '';
  }

  async function postCheckout(sessionId: string) {
    const response = await fixture.call({
      method: 'POST',
      url: '/v2/account/post_checkout',
      body: { session_id: sessionId },
    });
    expect(response.statusCode, response.body).toBe(200);
    return postCheckoutResponseSchema.parse(response.json());
  }

  it('tells the website that billing is on', async () => {
    const config = appConfigSchema.parse(
      (await fixture.call({ method: 'GET', url: '/app-config.json' })).json(),
    );
    expect(config.isBillingConfigured).toBe(true);
  });

  it('finds the active price by lookup key and opens a subscription Checkout session', async () => {
    const buyer = await fixture.api.createUser('signed-in-buyer', 'good');
    const sessionId = await startCheckout('iw-premium-yearly', buyer.user.subject);

    const priceQuery = fixture.stripe.requests.find((request) => request.path === '/v1/prices');
    expect(priceQuery).toMatchObject({
      method: 'GET',
      query: { lookup_keys: ['iw-premium-yearly'], active: 'true', expand: ['data.product'] },
    });
    expect(priceQuery?.authorization).toBe(`Bearer ${fixture.stripe.secretKey}`);
    const created = fixture.stripe.requests.findLast(
      (request) => request.method === 'POST' && request.path === '/v1/checkout/sessions',
    );
    expect(fixture.stripe.find(sessionId)).toMatchObject({ object: 'checkout.session' });
    expect(created?.body).toMatchObject({
      mode: 'subscription',
      success_url: `${SITE_URL}/checkout_complete?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${SITE_URL}/checkout_cancelled`,
      client_reference_id: buyer.user.subject,
      customer_email: 'signed-in-buyer@example.com',
      line_items: [{ quantity: '1' }],
    });
  });

  it('leaves client_reference_id out when auth0_id names nobody known', async () => {
    const before = fixture.stripe.requests.length;
    await startCheckout('iw-basic-monthly', 'auth0|nobody-here');
    await startCheckout('iw-basic-monthly', '');
    const sessions = fixture.stripe.requests
      .slice(before)
      .filter((request) => request.path === '/v1/checkout/sessions');
    expect(sessions).toHaveLength(2);
    for (const session of sessions) {
      expect(session.body).not.toHaveProperty('client_reference_id');
      expect(session.body).not.toHaveProperty('customer');
    }
  });

  it('answers 400 naming lookup_key when no active price has the key, creating no session', async () => {
    fixture.stripe.setPriceActive('iw-basic-yearly', false);
    const sessionsBefore = fixture.stripe.requests.filter(
      (request) => request.path === '/v1/checkout/sessions',
    ).length;
    try {
      const response = await fixture.call({
        method: 'POST',
        url: '/v2/account/create-checkout-session',
        body: { lookup_key: 'iw-basic-yearly', auth0_id: '' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_input', field: 'lookup_key' });
      expect(
        fixture.stripe.requests.filter((request) => request.path === '/v1/checkout/sessions'),
      ).toHaveLength(sessionsBefore);
    } finally {
      fixture.stripe.setPriceActive('iw-basic-yearly', true);
    }
  });

  it('answers post_checkout of an unknown session with an error action and changes nothing', async () => {
    const usersBefore = await fixture.api.testDb.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    await expect(postCheckout('cs_test_does_not_exist')).resolves.toEqual({ action: 'ERROR' });
    const usersAfter = await fixture.api.testDb.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(usersAfter.count).toBe(usersBefore.count);
  });

  it('answers post_checkout of an unpaid session with an error action, and the session stays usable', async () => {
    const sessionId = await startCheckout('iw-basic-monthly', '');
    await expect(postCheckout(sessionId)).resolves.toEqual({ action: 'ERROR' });
    fixture.stripe.completeCheckout(sessionId, 'late-payer@example.com');
    await expect(postCheckout(sessionId)).resolves.toEqual({
      action: 'ACCOUNT_CREATED',
      user_email: 'late-payer@example.com',
    });
  });

  it('creates the account of a new customer on the paid plan and mails a finish-setup link, once', async () => {
    const mailsBefore = fixture.smtp.messages.length;
    const sessionId = await startCheckout('iw-premium-monthly', '');
    const { customer } = fixture.stripe.completeCheckout(sessionId, 'New.Buyer@Example.com');

    await expect(postCheckout(sessionId)).resolves.toEqual({
      action: 'ACCOUNT_CREATED',
      user_email: 'new.buyer@example.com',
    });
    const [user] = await findUsersByEmail(fixture.api.testDb.db, 'new.buyer@example.com');
    expect(user).toMatchObject({
      issuer: fixture.api.idp.issuer,
      plan: 'best',
      stripe_customer_id: customer.id,
    });
    const [mail] = (await fixture.smtp.waitForMessages(mailsBefore + 1)).slice(mailsBefore);
    expect(mail?.envelopeTo).toEqual(['new.buyer@example.com']);
    expect(mail?.parsed.text).toContain(`${fixture.api.idp.issuer}account/set-password?token=`);

    // A session id is usable once: a replay neither answers the account nor mails again.
    await expect(postCheckout(sessionId)).resolves.toEqual({ action: 'ERROR' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fixture.smtp.messages).toHaveLength(mailsBefore + 1);
  });

  it('answers SIGN_IN for a customer who already has an account, without a new one', async () => {
    const member = await fixture.api.createUser('returning-member', 'good');
    const sessionId = await startCheckout('iw-basic-yearly', member.user.subject);
    fixture.stripe.completeCheckout(sessionId, 'someone-else@example.com');
    const mailsBefore = fixture.smtp.messages.length;

    await expect(postCheckout(sessionId)).resolves.toEqual({
      action: 'SIGN_IN',
      user_email: 'returning-member@example.com',
    });
    const [user] = await findUsersByEmail(fixture.api.testDb.db, 'returning-member@example.com');
    expect(user?.plan).toBe('better');
    expect(await findUsersByEmail(fixture.api.testDb.db, 'someone-else@example.com')).toEqual([]);
    expect(fixture.smtp.messages).toHaveLength(mailsBefore);
  });

  describe('the billing portal', () => {
    let payer: TestUser;
    beforeAll(async () => {
      payer = await fixture.api.createUser('portal-payer', 'good');
    });

    it('answers a clear 404 to a user who never checked out', async () => {
      const response = await fixture.call({
        method: 'POST',
        url: '/v2/account/create-portal-session',
        as: payer,
        body: {},
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        code: 'not_found',
        reason: expect.stringContaining('no subscription to manage') as unknown,
      });
    });

    it("opens the portal of the user's customer, returning to /account", async () => {
      const sessionId = await startCheckout('iw-basic-monthly', payer.user.subject);
      const { customer } = fixture.stripe.completeCheckout(sessionId, 'portal-payer@example.com');
      await postCheckout(sessionId);

      const response = await fixture.call({
        method: 'POST',
        url: '/v2/account/create-portal-session',
        as: payer,
        body: {},
      });
      expect(response.statusCode, response.body).toBe(200);
      const { session_url: sessionUrl } = portalSessionResponseSchema.parse(response.json());
      expect(sessionUrl).toContain(`${fixture.stripe.url}/p/session/bps_`);
      expect(fixture.stripe.requests.at(-1)).toMatchObject({
        method: 'POST',
        path: '/v1/billing_portal/sessions',
        body: { customer: customer.id, return_url: `${SITE_URL}/account` },
      });
    });
  });
});
