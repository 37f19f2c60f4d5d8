import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessionResponseSchema } from '#shared/api/billing.ts';
import { findUserById } from '#server/db/repositories/users-repository.ts';
import type { PlanCode, UserRow } from '#server/db/schema.ts';
import type { TestUser } from '#tests/helpers/api-harness.ts';
import {
  buildStripeEvent,
  signStripeEvent,
  type StripeJson,
} from '#tests/helpers/stripe-stand-in.ts';
import { startBillingFixture, WEBHOOK_SECRET, type BillingFixture } from './billing-fixture.ts';

// Stores of the seeded catalog, one per search.
const STORES = ['R095', 'R075', 'R217', 'R033', 'R029', 'R231'];

describe('Stripe webhooks at /v2/billing/webhook', () => {
  let fixture: BillingFixture;
  let seq = 0;
  beforeAll(async () => {
    fixture = await startBillingFixture();
  });
  afterAll(async () => fixture.close());

  async function readUser(userId: string): Promise<UserRow> {
    const user = await findUserById(fixture.api.testDb.db, userId);
    if (user === undefined) throw new Error('user vanished');
    return user;
  }

  /**
   * A signed-in member who paid for `lookupKey` at the stand-in: the customer and the
   * subscription exist at "Stripe", and the checkout.session.completed event (which links
   * the customer to the member) is answered but not yet delivered.
   */
  async function payAsMember(
    plan: PlanCode,
    lookupKey: string,
  ): Promise<{
    member: TestUser;
    completed: StripeJson;
    subscription: StripeJson;
    customerId: string;
  }> {
    seq += 1;
    const member = await fixture.api.createUser(`member${seq}`, plan);
    const response = await fixture.call({
      method: 'POST',
      url: '/v2/account/create-checkout-session',
      body: { lookup_key: lookupKey, auth0_id: member.user.subject },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { checkout_url: checkoutUrl } = checkoutSessionResponseSchema.parse(response.json());
    const sessionId = new URL(checkoutUrl).pathname.split('/').at(-1);
    const { session, subscription, customer } = fixture.stripe.completeCheckout(
      sessionId ?? '',
      `member${seq}@example.com`,
    );
    return {
      member,
      completed: buildStripeEvent('checkout.session.completed', session),
      subscription,
      customerId: String(customer.id),
    };
  }

  /** The subscription object with another status and, when given, another price. */
  function changeSubscription(
    subscription: StripeJson,
    changes: { status?: string; lookupKey?: string },
  ): StripeJson {
    const copy = structuredClone(subscription);
    if (changes.status !== undefined) copy.status = changes.status;
    if (changes.lookupKey !== undefined) {
      const items = copy.items as { data: { price: StripeJson }[] };
      const price = findPrice(changes.lookupKey);
      for (const item of items.data) item.price = price;
    }
    return copy;
  }

  function findPrice(lookupKey: string): StripeJson {
    const price = fixture.stripe
      .listPrices()
      .find((candidate) => candidate.lookup_key === lookupKey);
    if (price === undefined) throw new Error(`no price ${lookupKey}`);
    return price;
  }

  async function countEvents(): Promise<number> {
    const row = await fixture.api.testDb.db
      .selectFrom('billing_events')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return row.count;
  }

  async function createSearches(member: TestUser, count: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const storeId = STORES[index % STORES.length];
      const response = await fixture.call({
        method: 'POST',
        url: '/v2/searches',
        as: member,
        body: { product_type: 'iphone16', store_id: storeId },
      });
      statuses.push(response.statusCode);
    }
    return statuses;
  }

  it('applies a validly signed subscription and answers 200 at once', async () => {
    const { member, completed, subscription } = await payAsMember('good', 'iw-premium-monthly');
    const linked = await fixture.postEvent(completed);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toEqual({ received: true });
    const created = await fixture.postEvent(
      buildStripeEvent('customer.subscription.created', subscription),
    );
    expect(created.statusCode).toBe(200);
    expect((await readUser(member.user.id)).plan).toBe('best');
    const stored = await fixture.api.testDb.db
      .selectFrom('billing_subscriptions')
      .selectAll()
      .where('id', '=', String(subscription.id))
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      status: 'active',
      lookup_key: 'iw-premium-monthly',
      plan: 'best',
    });
    expect(stored.current_period_end?.getTime()).toBeGreaterThan(Date.now());
  });

  it('raises the search limit at once on an upgrade through a signed webhook', async () => {
    const { member, completed, subscription } = await payAsMember('better', 'iw-premium-monthly');
    expect(await createSearches(member, 6)).toEqual([201, 201, 201, 201, 201, 403]);

    await fixture.postEvent(completed);
    await fixture.postEvent(buildStripeEvent('customer.subscription.created', subscription));
    // Premium allows 10: five more than those already made, and no eleventh.
    expect(await createSearches(member, 6)).toEqual([201, 201, 201, 201, 201, 403]);
  });

  it('refuses a tampered body with 400 and changes nothing', async () => {
    const { member, completed, subscription } = await payAsMember('good', 'iw-premium-yearly');
    const eventsBefore = await countEvents();
    const { payload, signature } = signStripeEvent(completed, WEBHOOK_SECRET);
    const tampered = payload.replace(String(member.user.subject), 'subject-someone-else');
    expect(tampered).not.toBe(payload);
    const response = await fixture.app.inject({
      method: 'POST',
      url: '/v2/billing/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload: tampered,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_signature' });

    const unsigned = await fixture.app.inject({
      method: 'POST',
      url: '/v2/billing/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(buildStripeEvent('customer.subscription.created', subscription)),
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await countEvents()).toBe(eventsBefore);
    expect(await readUser(member.user.id)).toMatchObject({
      plan: 'good',
      stripe_customer_id: null,
    });
  });

  it('changes nothing for a forged webhook signed with another secret', async () => {
    const { member, completed, subscription } = await payAsMember('good', 'iw-premium-yearly');
    const eventsBefore = await countEvents();
    for (const event of [
      completed,
      buildStripeEvent('customer.subscription.created', subscription),
    ]) {
      const response = await fixture.postEvent(event, 'whsec_forged_by_someone');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_signature' });
    }
    expect(await countEvents()).toBe(eventsBefore);
    expect(await readUser(member.user.id)).toMatchObject({
      plan: 'good',
      stripe_customer_id: null,
    });
  });

  it('has no second effect for a replayed event', async () => {
    const { member, completed, subscription } = await payAsMember('good', 'iw-premium-monthly');
    await fixture.postEvent(completed);
    const created = buildStripeEvent('customer.subscription.created', subscription);
    await fixture.postEvent(created);
    const cancelled = buildStripeEvent(
      'customer.subscription.deleted',
      changeSubscription(subscription, { status: 'canceled' }),
      { created: Number(created.created) + 60 },
    );
    expect((await fixture.postEvent(cancelled)).statusCode).toBe(200);
    expect((await readUser(member.user.id)).plan).toBe('good');

    // The admin puts the member back on Premium by hand; a replay must not undo it.
    await fixture.api.testDb.db
      .updateTable('users')
      .set({ plan: 'best' })
      .where('id', '=', member.user.id)
      .execute();
    const eventsBefore = await countEvents();
    const replay = await fixture.postEvent(cancelled);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true });
    expect(await countEvents()).toBe(eventsBefore);
    expect((await readUser(member.user.id)).plan).toBe('best');
  });

  it('ends in the newest state whatever order the events arrive in', async () => {
    const { member, completed, subscription } = await payAsMember('good', 'iw-basic-monthly');
    const start = Number(subscription.created);
    const created = buildStripeEvent('customer.subscription.created', subscription, {
      created: start,
    });
    const upgraded = buildStripeEvent(
      'customer.subscription.updated',
      changeSubscription(subscription, { lookupKey: 'iw-premium-monthly' }),
      { created: start + 10 },
    );
    const pastDue = buildStripeEvent(
      'customer.subscription.updated',
      changeSubscription(subscription, { lookupKey: 'iw-premium-monthly', status: 'past_due' }),
      { created: start + 20 },
    );
    // Newest first, the linking checkout event last.
    for (const event of [pastDue, upgraded, created, completed]) {
      expect((await fixture.postEvent(event)).statusCode).toBe(200);
    }
    expect((await readUser(member.user.id)).plan).toBe('best');
    const stored = await fixture.api.testDb.db
      .selectFrom('billing_subscriptions')
      .select(['status', 'plan'])
      .where('id', '=', String(subscription.id))
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'past_due', plan: 'best' });

    // The cancellation, then an older update arriving late: cancelled it stays.
    const ended = buildStripeEvent(
      'customer.subscription.deleted',
      changeSubscription(subscription, { lookupKey: 'iw-premium-monthly', status: 'canceled' }),
      { created: start + 30 },
    );
    await fixture.postEvent(ended);
    await fixture.postEvent(
      buildStripeEvent(
        'customer.subscription.updated',
        changeSubscription(subscription, { lookupKey: 'iw-premium-monthly' }),
        { created: start + 25 },
      ),
    );
    expect((await readUser(member.user.id)).plan).toBe('good');
  });

  it('lets an active update beat an incomplete creation sent within the same second', async () => {
    const { member, completed, subscription } = await payAsMember('good', 'iw-basic-yearly');
    const second = Number(subscription.created);
    await fixture.postEvent(completed);
    await fixture.postEvent(
      buildStripeEvent('customer.subscription.updated', subscription, { created: second }),
    );
    await fixture.postEvent(
      buildStripeEvent(
        'customer.subscription.created',
        changeSubscription(subscription, { status: 'incomplete' }),
        { created: second },
      ),
    );
    expect((await readUser(member.user.id)).plan).toBe('better');
  });

  it('pauses the newest searches when a downgrade ends the subscription', async () => {
    const { member, completed, subscription } = await payAsMember('good', 'iw-basic-monthly');
    await fixture.postEvent(completed);
    await fixture.postEvent(buildStripeEvent('customer.subscription.created', subscription));
    expect(await createSearches(member, 3)).toEqual([201, 201, 201]);

    await fixture.postEvent(
      buildStripeEvent(
        'customer.subscription.deleted',
        changeSubscription(subscription, { status: 'canceled' }),
        { created: Number(subscription.created) + 5 },
      ),
    );
    const searches = await fixture.api.testDb.db
      .selectFrom('searches')
      .select(['paused_at'])
      .where('user_id', '=', member.user.id)
      .orderBy('created_at')
      .execute();
    expect(searches.map((search) => search.paused_at !== null)).toEqual([false, true, true]);
    expect((await readUser(member.user.id)).plan).toBe('good');
  });

  it('records a failed renewal payment on the subscription and keeps the plan', async () => {
    const { member, completed, subscription } = await payAsMember('good', 'iw-premium-yearly');
    await fixture.postEvent(completed);
    await fixture.postEvent(buildStripeEvent('customer.subscription.created', subscription));
    const invoice: StripeJson = {
      id: 'in_test_failed',
      object: 'invoice',
      customer: subscription.customer,
      status: 'open',
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: {} },
      },
    };
    const response = await fixture.postEvent(buildStripeEvent('invoice.payment_failed', invoice));
    expect(response.statusCode).toBe(200);
    const stored = await fixture.api.testDb.db
      .selectFrom('billing_subscriptions')
      .select('last_payment_failed_at')
      .where('id', '=', String(subscription.id))
      .executeTakeFirstOrThrow();
    expect(stored.last_payment_failed_at).toBeInstanceOf(Date);
    expect((await readUser(member.user.id)).plan).toBe('best');
  });

  it('records events of other types without acting on them', async () => {
    const eventsBefore = await countEvents();
    const response = await fixture.postEvent(
      buildStripeEvent('customer.created', { id: 'cus_unrelated', object: 'customer' }),
    );
    expect(response.statusCode).toBe(200);
    expect(await countEvents()).toBe(eventsBefore + 1);
  });

  it("cancels the member's subscription at Stripe when they delete their account", async () => {
    const { member, completed, subscription } = await payAsMember('good', 'iw-basic-monthly');
    await fixture.postEvent(completed);
    await fixture.postEvent(buildStripeEvent('customer.subscription.created', subscription));

    const response = await fixture.call({ method: 'DELETE', url: '/v2/account', as: member });
    expect(response.statusCode, response.body).toBe(204);
    expect(fixture.stripe.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      path: `/v1/subscriptions/${String(subscription.id)}`,
    });
    expect(fixture.stripe.find(String(subscription.id))?.status).toBe('canceled');
    expect(await findUserById(fixture.api.testDb.db, member.user.id)).toBeUndefined();
  });
});
