import Stripe from 'stripe';
import type { PostCheckoutResponse } from '#shared/api/billing.ts';
import { ERROR_CODES } from '#shared/api/errors.ts';
import type { AccountSettings } from '#server/accounts/index.ts';
import type { Db } from '#server/db/database.ts';
import type { UserRow } from '#server/db/schema.ts';
import { AppError } from '#server/base/app-error.ts';
import { findCustomerOfUser } from '#server/db/repositories/billing-repository.ts';
import {
  callStripe,
  createCheckoutSession,
  createPortalSession,
  type CheckoutContext,
} from './checkout.ts';
import { completeCheckout } from './post-checkout.ts';
import { createStripeClient, type StripeConnection, type StripeSettings } from './stripe-client.ts';
import { handleBillingEvent, type WebhookOutcome } from './webhook-events.ts';

/** Stripe billing of an installation: checkout, portal, post_checkout, webhooks, cancellation. */
export type Billing = {
  /** The Checkout page address for the active price of `lookupKey` (400 naming lookup_key without one). */
  createCheckoutSession: (input: { lookupKey: string; auth0Id: string }) => Promise<string>;
  /** The billing portal address of the user's customer (404 before any checkout). */
  createPortalSession: (user: UserRow) => Promise<string>;
  /** What a finished Checkout session means for the website (post_checkout). */
  completeCheckout: (sessionId: string) => Promise<PostCheckoutResponse>;
  /** Verifies a webhook delivery's signature on its raw body (400 if it fails), then applies it. */
  receiveWebhook: (rawBody: Buffer, signature: string | undefined) => Promise<WebhookOutcome>;
  /** Cancels every subscription Stripe may still charge the user for (account deletion). */
  cancelSubscriptions: (user: UserRow) => Promise<void>;
};

/** What the billing service is built from. */
export type BillingDependencies = {
  db: Db;
  settings: StripeSettings;
  accounts: Pick<AccountSettings, 'login' | 'publicUrl' | 'mailer' | 'supportEmail'>;
  /** Where the Stripe client connects; api.stripe.com unless a test points it elsewhere. */
  connection?: StripeConnection;
  /** Stripe's failures and what webhooks changed (default: nowhere). */
  log?: { info: (message: string) => void; warn: (message: string) => void };
};

/** Statuses of subscriptions that can no longer charge anyone. */
const ENDED_STATUSES = new Set(['canceled', 'incomplete_expired']);

/** Builds the billing service; makes no request until one of its calls is used. */
export function createBilling(deps: BillingDependencies): Billing {
  const stripe = createStripeClient(deps.settings.stripeSecretKey, deps.connection);
  const log = deps.log ?? { info: () => undefined, warn: () => undefined };
  const context: CheckoutContext = {
    db: deps.db,
    stripe,
    publicUrl: deps.accounts.publicUrl.replace(/\/$/, ''),
    issuer: deps.accounts.login.issuer,
    warn: log.warn,
  };
  return {
    createCheckoutSession: (input) => createCheckoutSession(context, input),
    createPortalSession: (user) => createPortalSession(context, user),
    completeCheckout: (sessionId) =>
      completeCheckout({ ...context, accounts: deps.accounts }, sessionId),
    receiveWebhook: async (rawBody, signature) => {
      const event = verifyWebhook(stripe, rawBody, signature, deps.settings.webhookSecret);
      const outcome = await handleBillingEvent({ db: deps.db, issuer: context.issuer }, event);
      for (const note of outcome.notes) {
        log.info(`Stripe ${event.type} ${event.id}: ${note}`);
      }
      return outcome;
    },
    cancelSubscriptions: async (user) => {
      const customerId = await findCustomerOfUser(deps.db, user.id);
      if (customerId === null) {
        return;
      }
      const subscriptions = await callStripe(log.warn, () =>
        stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 100 }),
      );
      for (const subscription of subscriptions.data) {
        if (!ENDED_STATUSES.has(subscription.status)) {
          await callStripe(log.warn, () => stripe.subscriptions.cancel(subscription.id));
          log.info(`Stripe subscription ${subscription.id} cancelled for user ${user.id}`);
        }
      }
    },
  };
}

/** The event of a delivery whose signature matches the webhook secret; 400 otherwise. */
function verifyWebhook(
  stripe: Stripe,
  rawBody: Buffer,
  signature: string | undefined,
  secret: string,
): Stripe.Event {
  if (signature === undefined || signature === '') {
    throw invalidSignature('The Stripe-Signature header is missing');
  }
  try {
    return stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw invalidSignature('The Stripe-Signature header does not match this body');
    }
    // A signed body that is not an event (not JSON): nothing a retry could fix either.
    throw invalidSignature('The signed body is not a Stripe event');
  }
}

function invalidSignature(message: string): AppError {
  return new AppError(400, ERROR_CODES.invalidSignature, message);
}

// Declaration merging needs an interface: this extends Fastify's own.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'fastify' {
  interface FastifyInstance {
    /** Stripe billing when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set, else null. */
    billing: Billing | null;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */
