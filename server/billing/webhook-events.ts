import type { Transaction } from 'kysely';
import type Stripe from 'stripe';
import { applyPlanChange } from '#server/accounts/index.ts';
import type { Db } from '#server/db/database.ts';
import { findUserByIdentity } from '#server/db/repositories/users-repository.ts';
import type { Database } from '#server/db/schema.ts';
import {
  findPlanOfCustomer,
  findUserByCustomer,
  linkCustomer,
  markPaymentFailed,
  recordBillingEvent,
  saveSubscriptionState,
  type SubscriptionState,
} from '#server/db/repositories/billing-repository.ts';
import { chooseBestPlan } from '#shared/domain/plans.ts';
import { findPlanOfLookupKey, readStripeId } from './stripe-client.ts';

/** What handling one verified event did. */
export type WebhookOutcome = {
  /** False for an event id seen before: nothing was changed. */
  isFirstDelivery: boolean;
  /** Lines worth a log entry (a customer linked, a plan changed, a payment failed). */
  notes: string[];
};

/** What event handling needs besides the database. */
export type WebhookContext = {
  db: Db;
  /** The login issuer whose subjects `client_reference_id` names (the website's auth0_id). */
  issuer: string;
};

/**
 * Records `event` and applies it in one short transaction of database work only, so Stripe
 * gets its 2xx at once: a replayed id changes nothing, and subscription state comes from the
 * event's own object (newest `created` wins), so any arrival order ends in the same plan.
 */
export async function handleBillingEvent(
  context: WebhookContext,
  event: Stripe.Event,
): Promise<WebhookOutcome> {
  return await context.db.transaction().execute(async (trx) => {
    const isFirstDelivery = await recordBillingEvent(trx, {
      id: event.id,
      type: event.type,
      created: new Date(event.created * 1000),
    });
    if (!isFirstDelivery) {
      return { isFirstDelivery, notes: [] };
    }
    const notes: string[] = [];
    switch (event.type) {
      case 'checkout.session.completed':
        await applyCompletedCheckout(context, trx, event.data.object, notes);
        break;
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const state = readSubscriptionState(event.data.object, new Date(event.created * 1000));
        if (await saveSubscriptionState(trx, state)) {
          await syncCustomerPlan(context.db, trx, state.customerId, notes);
        }
        break;
      }
      case 'invoice.payment_failed': {
        const subscriptionId = readStripeId(
          event.data.object.parent?.subscription_details?.subscription,
        );
        if (subscriptionId !== null) {
          await markPaymentFailed(trx, subscriptionId, new Date(event.created * 1000));
        }
        notes.push(
          `payment failed for customer ${readStripeId(event.data.object.customer) ?? 'unknown'}` +
            ' (the plan follows the subscription status Stripe sends next)',
        );
        break;
      }
      default:
        break;
    }
    return { isFirstDelivery, notes };
  });
}

/**
 * A completed Checkout of a signed-in visitor (`client_reference_id` names their subject):
 * their account is linked to the customer now. A buyer without an account is linked by
 * post_checkout, which creates it.
 */
async function applyCompletedCheckout(
  context: WebhookContext,
  trx: Transaction<Database>,
  session: Stripe.Checkout.Session,
  notes: string[],
): Promise<void> {
  const customerId = readStripeId(session.customer);
  if (session.mode !== 'subscription' || customerId === null) {
    return;
  }
  const reference = session.client_reference_id;
  const user =
    reference === null
      ? undefined
      : await findUserByIdentity(trx, { issuer: context.issuer, subject: reference });
  if (user !== undefined) {
    if (await linkCustomer(trx, user.id, customerId)) {
      notes.push(`customer ${customerId} linked to user ${user.id}`);
    } else {
      notes.push(`customer ${customerId} not linked: user ${user.id} pays through another`);
    }
  }
  await syncCustomerPlan(context.db, trx, customerId, notes);
}

/** Puts the customer's user, if any yet, on the plan their subscriptions give now. */
export async function syncCustomerPlan(
  db: Db,
  trx: Transaction<Database>,
  customerId: string,
  notes: string[],
): Promise<void> {
  // Locked first, so two events of one customer read each other's subscriptions.
  const user = await findUserByCustomer(trx, customerId, { isLocked: true });
  if (user === undefined) {
    return;
  }
  const plan = await findPlanOfCustomer(trx, customerId);
  if (plan === undefined) {
    return;
  }
  const change = await applyPlanChange(db, user.id, plan, trx);
  if (change !== undefined && change.previousPlan !== change.plan) {
    notes.push(`user ${user.id}: plan ${change.previousPlan} -> ${change.plan}`);
  }
}

/** A subscription object as the state stored for it; the best-plan item names the price. */
export function readSubscriptionState(
  subscription: Stripe.Subscription,
  eventCreated: Date,
): SubscriptionState {
  const items = subscription.items.data.map((item) => ({
    item,
    plan: findPlanOfLookupKey(item.price.lookup_key),
  }));
  const bestPlan = chooseBestPlan(
    items.flatMap((entry) => (entry.plan === null ? [] : [entry.plan])),
  );
  const chosen = items.find((entry) => entry.plan === bestPlan) ?? items[0];
  return {
    id: subscription.id,
    customerId: readStripeId(subscription.customer) ?? '',
    status: subscription.status,
    priceId: chosen?.item.price.id ?? null,
    lookupKey: chosen?.item.price.lookup_key ?? null,
    plan: chosen?.plan ?? null,
    currentPeriodEnd: chosen === undefined ? null : new Date(chosen.item.current_period_end * 1000),
    eventCreated,
  };
}
