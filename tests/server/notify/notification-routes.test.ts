import type { FastifyInstance } from 'fastify';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema, searchSchema, type Search } from '#shared/api/index.ts';
import {
  pushPublicKeySchema,
  pushSubscriptionSchema,
  unsubscribeResultSchema,
} from '#shared/api/notifications.ts';
import { buildApp } from '#server/app.ts';
import { buildUnsubscribeUrl } from '#server/notify/deliver-alert.ts';
import { loadOrCreateNotifySecrets } from '#server/notify/secrets.ts';
import { createTokenVerifier } from '#server/http/auth/token-verifier.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';

const PUBLIC_URL = 'https://shelfwatch.test';
const TWILIO_AUTH_TOKEN = 'twilio-test-auth-token';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('/v2/notifications', () => {
  let api: ApiHarness;
  let alice: TestUser;
  let bob: TestUser;
  let webhookApp: FastifyInstance;
  beforeAll(async () => {
    api = await startApiHarness();
    alice = await api.createUser('alice', 'best');
    bob = await api.createUser('bob', 'best');
    // The same API configured with a public URL and Twilio's auth token, as npm start builds it.
    webhookApp = await buildApp({
      db: api.testDb.db,
      verifyToken: createTokenVerifier({
        issuer: api.idp.issuer,
        audience: api.idp.audience,
        allowedClientIds: api.idp.allowedClientIds,
      }),
      website: {
        auth: {
          domain: api.idp.issuer.replace(/\/$/, ''),
          clientId: api.idp.clientId,
          audience: api.idp.audience,
        },
        apiBaseUrl: PUBLIC_URL,
        supportEmail: 'support@shelfwatch.app',
        supportEndDate: 'September 8th, 2025',
        maker: { name: 'Lantern Apps', url: 'https://lanternapps.dev' },
        isBillingConfigured: false,
        macDownloadUrl: null,
        cookiePrefix: 'shelfwatch_',
      },
      corsOrigins: [PUBLIC_URL],
      logLevel: 'silent',
      notify: { publicUrl: PUBLIC_URL, twilioAuthToken: TWILIO_AUTH_TOKEN },
    });
    await webhookApp.ready();
  });
  afterAll(async () => {
    await webhookApp.close();
    await api.close();
  });

  async function createSearch(as: TestUser): Promise<Search> {
    const response = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as,
      body: { product_type: 'iphone16pro', store_id: 'R095' },
    });
    expect(response.statusCode, response.body).toBe(201);
    return searchSchema.parse(response.json());
  }

  async function unsubscribePath(searchId: string): Promise<string> {
    const { unsubscribeKey } = await loadOrCreateNotifySecrets(api.testDb.db);
    return buildUnsubscribeUrl('', unsubscribeKey, searchId);
  }

  async function isEmailOn(searchId: string): Promise<boolean> {
    const row = await api.testDb.db
      .selectFrom('searches')
      .select('send_email_updates')
      .where('id', '=', searchId)
      .executeTakeFirstOrThrow();
    return row.send_email_updates;
  }

  describe('push subscriptions', () => {
    const subscription = {
      endpoint: 'https://push.example.net/send/abc123',
      expirationTime: null,
      keys: { p256dh: 'B'.repeat(87), auth: 'a'.repeat(22) },
    };

    it('serves the VAPID public key without signing in, the same on every call', async () => {
      const first = pushPublicKeySchema.parse(
        (await api.call({ method: 'GET', url: '/v2/notifications/push/public-key' })).json(),
      );
      const second = pushPublicKeySchema.parse(
        (await api.call({ method: 'GET', url: '/v2/notifications/push/public-key' })).json(),
      );
      expect(first.public_key).toMatch(/^[A-Za-z0-9_-]{87}$/);
      expect(second).toEqual(first);
    });

    it('saves a subscription for the signed-in user and deletes it again', async () => {
      const created = await api.call({
        method: 'POST',
        url: '/v2/notifications/push/subscriptions',
        as: alice,
        body: subscription,
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(pushSubscriptionSchema.parse(created.json()).endpoint).toBe(subscription.endpoint);
      const rows = await api.testDb.db
        .selectFrom('push_subscriptions')
        .selectAll()
        .where('user_id', '=', alice.user.id)
        .execute();
      expect(rows.map((row) => row.keys)).toEqual([subscription.keys]);

      const bobsDelete = await api.call({
        method: 'DELETE',
        url: '/v2/notifications/push/subscriptions',
        as: bob,
        body: { endpoint: subscription.endpoint },
      });
      expect(bobsDelete.statusCode).toBe(404);
      const deleted = await api.call({
        method: 'DELETE',
        url: '/v2/notifications/push/subscriptions',
        as: alice,
        body: { endpoint: subscription.endpoint },
      });
      expect(deleted.statusCode).toBe(204);
    });

    it("refuses with 409 to save another user's endpoint, which stays theirs with their keys", async () => {
      const endpoint = 'https://push.example.net/send/owned-by-alice';
      const save = (as: TestUser, keys: { p256dh: string; auth: string }) =>
        api.call({
          method: 'POST',
          url: '/v2/notifications/push/subscriptions',
          as,
          body: { ...subscription, endpoint, keys },
        });
      expect((await save(alice, subscription.keys)).statusCode).toBe(201);

      const taken = await save(bob, { p256dh: 'C'.repeat(87), auth: 'b'.repeat(22) });
      expect(taken.statusCode).toBe(409);
      expect(errorBodySchema.parse(taken.json())).toMatchObject({
        code: 'push_endpoint_taken',
        field: 'endpoint',
      });
      const owner = () =>
        api.testDb.db
          .selectFrom('push_subscriptions')
          .select(['user_id', 'keys'])
          .where('endpoint', '=', endpoint)
          .executeTakeFirstOrThrow();
      expect(await owner()).toEqual({ user_id: alice.user.id, keys: subscription.keys });

      // Its owner may still save it again with the browser's new keys.
      const renewedKeys = { p256dh: 'D'.repeat(87), auth: 'c'.repeat(22) };
      expect((await save(alice, renewedKeys)).statusCode).toBe(201);
      expect(await owner()).toEqual({ user_id: alice.user.id, keys: renewedKeys });
    });

    it('requires signing in and names the bad field', async () => {
      expect(
        (
          await api.call({
            method: 'POST',
            url: '/v2/notifications/push/subscriptions',
            body: subscription,
          })
        ).statusCode,
      ).toBe(401);
      const insecure = await api.call({
        method: 'POST',
        url: '/v2/notifications/push/subscriptions',
        as: alice,
        body: { ...subscription, endpoint: 'http://push.example.net/x' },
      });
      expect(insecure.statusCode).toBe(400);
      expect(insecure.json()).toMatchObject({ field: 'endpoint' });
      const noAuth = await api.call({
        method: 'POST',
        url: '/v2/notifications/push/subscriptions',
        as: alice,
        body: { ...subscription, keys: { p256dh: subscription.keys.p256dh } },
      });
      expect(noAuth.statusCode).toBe(400);
      expect(noAuth.json()).toMatchObject({ field: 'keys.auth' });
    });
  });

  describe('one-click unsubscribe', () => {
    it('only shows a confirmation page on GET, because mail scanners follow links', async () => {
      const search = await createSearch(alice);
      const url = await unsubscribePath(search.id);
      const page = await api.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('<form method="post"');
      expect(page.body).toContain('name="List-Unsubscribe" value="One-Click"');
      expect(await isEmailOn(search.id)).toBe(true);
    });

    it('turns email alerts off for the search on the RFC 8058 POST', async () => {
      const search = await createSearch(alice);
      const other = await createSearch(alice);
      const response = await api.app.inject({
        method: 'POST',
        url: await unsubscribePath(search.id),
        headers: FORM,
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(unsubscribeResultSchema.parse(response.json())).toEqual({
        search_id: search.id,
        send_email_updates: false,
      });
      expect(await isEmailOn(search.id)).toBe(false);
      expect(await isEmailOn(other.id)).toBe(true);
    });

    it('answers the confirmation button with a page', async () => {
      const search = await createSearch(bob);
      const response = await api.app.inject({
        method: 'POST',
        url: await unsubscribePath(search.id),
        headers: { ...FORM, accept: 'text/html' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('Email alerts for this search are off');
      expect(await isEmailOn(search.id)).toBe(false);
    });

    it('refuses forged or missing tokens with a readable 400', async () => {
      const search = await createSearch(bob);
      const forged = (await unsubscribePath(search.id)).replace(/.{4}$/, 'AAAA');
      const post = await api.app.inject({
        method: 'POST',
        url: forged,
        headers: FORM,
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(post.statusCode).toBe(400);
      expect(post.json()).toMatchObject({
        field: 'token',
        message: expect.stringContaining('not valid') as unknown,
      });
      const page = await api.app.inject({ method: 'GET', url: forged });
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain('This link is not valid');
      const missing = await api.app.inject({
        method: 'POST',
        url: '/v2/notifications/unsubscribe',
        headers: FORM,
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ field: 'token' });
      const wrongBody = await api.app.inject({
        method: 'POST',
        url: await unsubscribePath(search.id),
        headers: FORM,
        payload: 'List-Unsubscribe=Yes',
      });
      expect(wrongBody.statusCode).toBe(400);
      expect(await isEmailOn(search.id)).toBe(true);
    });
  });

  describe('Twilio inbound webhook', () => {
    const phone = '+14155550199';
    const path = '/v2/notifications/twilio/inbound';

    async function sendInbound(
      body: string,
      signature?: string,
    ): Promise<{ statusCode: number; body: string; contentType: string }> {
      const params = {
        From: phone,
        To: '+15005550006',
        Body: body,
        MessageSid: 'SM0123456789abcdef0123456789abcdef',
        AccountSid: 'AC0123',
      };
      const response = await webhookApp.inject({
        method: 'POST',
        url: path,
        headers: {
          ...FORM,
          'x-twilio-signature':
            signature ??
            twilio.getExpectedTwilioSignature(TWILIO_AUTH_TOKEN, `${PUBLIC_URL}${path}`, params),
        },
        payload: new URLSearchParams(params).toString(),
      });
      return {
        statusCode: response.statusCode,
        body: response.body,
        contentType: String(response.headers['content-type']),
      };
    }

    async function isOptedOut(): Promise<boolean> {
      const row = await api.testDb.db
        .selectFrom('users')
        .select('is_text_opted_out')
        .where('id', '=', alice.user.id)
        .executeTakeFirstOrThrow();
      return row.is_text_opted_out;
    }

    it('opts the number out on STOP and back in on START, answering TwiML', async () => {
      await api.testDb.db
        .updateTable('users')
        .set({ phone_number: phone })
        .where('id', '=', alice.user.id)
        .execute();
      const stop = await sendInbound(' stop ');
      expect(stop.statusCode, stop.body).toBe(200);
      expect(stop.contentType).toContain('text/xml');
      expect(stop.body).toContain('<Response/>');
      expect(await isOptedOut()).toBe(true);

      const start = await sendInbound('START');
      expect(start.body).toContain('<Message>Shelfwatch: text alerts are back on.');
      expect(await isOptedOut()).toBe(false);
      for (const keyword of ['UNSUBSCRIBE', 'Cancel', 'END', 'quit']) {
        await sendInbound(keyword);
        expect(await isOptedOut()).toBe(true);
        await sendInbound('unstop');
        expect(await isOptedOut()).toBe(false);
      }
    });

    it('refuses a bad signature with 403 and changes nothing', async () => {
      const response = await sendInbound('STOP', 'bm90LWEtc2lnbmF0dXJl');
      expect(response.statusCode).toBe(403);
      expect(await isOptedOut()).toBe(false);
    });

    it('refuses every webhook when Twilio is not configured', async () => {
      const response = await api.app.inject({
        method: 'POST',
        url: path,
        headers: FORM,
        payload: `From=${encodeURIComponent(phone)}&Body=STOP`,
      });
      expect(response.statusCode).toBe(403);
    });
  });
});
