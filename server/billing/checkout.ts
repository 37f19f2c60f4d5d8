import Stripe from 'stripe';
import { ERROR_CODES } from '#shared/api/errors.ts';
import type { Db } from '#server/db/database.ts';
import { findUserByIdentity } from '#server/db/repositories/users-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { AppError, invalidInput } from '#server/base/app-error.ts';
import { findCustomerOfUser } from '#server/db/repositories/billing-repository.ts';

/** What starting a checkout or opening the portal needs. */
export type CheckoutContext = {
  db: Db;
  stripe: Stripe;
  /** The website's origin (no trailing slash): Stripe sends the buyer back there. */
  publicUrl: string;
  /** The login issuer whose subjects the website sends as `auth0_id`. */
  issuer: string;
  /** Where Stripe's failures are reported (their details are not shown to the caller). */
  warn: (message: string) => void;
};

/**
 * A subscription Checkout session for the active price of `lookupKey`: `auth0_id` naming a
 * known user becomes `client_reference_id` (the webhook links that account), and a known
 * customer is reused; anyone else buys as a new customer and gets an account at post_checkout.
 */
export async function createCheckoutSession(
  context: CheckoutContext,
  input: { lookupKey: string; auth0Id: string },
): Promise<string> {
  const prices = await callStripe(context.warn, () =>
    context.stripe.prices.list({
      lookup_keys: [input.lookupKey],
      active: true,
      expand: ['data.product'],
    }),
  );
  const price = prices.data.find((candidate) => isSellable(candidate));
  if (price === undefined) {
    throw invalidInput('lookup_key', `no active price has the lookup key ${input.lookupKey}`);
  }
  const user =
    input.auth0Id === ''
      ? undefined
      : await findUserByIdentity(context.db, { issuer: context.issuer, subject: input.auth0Id });
  const customerId = user === undefined ? null : await findCustomerOfUser(context.db, user.id);
  const session = await callStripe(context.warn, () =>
    context.stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: `${context.publicUrl}/checkout_complete?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${context.publicUrl}/checkout_cancelled`,
      ...(user === undefined ? {} : { client_reference_id: input.auth0Id }),
      ...describeBuyer(user, customerId),
    }),
  );
  if (session.url === null) {
    throw unavailable('Stripe answered a Checkout session without a url');
  }
  return session.url;
}

/** The billing portal of the user's customer; 404 before they ever checked out. */
export async function createPortalSession(
  context: CheckoutContext,
  user: UserRow,
): Promise<string> {
  const customerId = await findCustomerOfUser(context.db, user.id);
  if (customerId === null) {
    throw new AppError(404, ERROR_CODES.notFound, 'This account has no Stripe customer', {
      reason:
        'This account has no subscription to manage yet. See the Pricing page to choose a plan.',
    });
  }
  const session = await callStripe(context.warn, () =>
    context.stripe.billingPortal.sessions.create({
      customer: customerId,
      return_url: `${context.publicUrl}/account`,
    }),
  );
  return session.url;
}

/** A price whose product is still sold (archived products keep active prices). */
function isSellable(price: Stripe.Price): boolean {
  return typeof price.product !== 'object' || !('active' in price.product) || price.product.active;
}

/** The buyer Stripe should show: the known customer, else the user's email prefilled. */
function describeBuyer(
  user: UserRow | undefined,
  customerId: string | null,
): { customer?: string; customer_email?: string } {
  if (customerId !== null) {
    return { customer: customerId };
  }
  return user?.email === null || user?.email === undefined ? {} : { customer_email: user.email };
}

/**
 * Runs a Stripe call, turning Stripe's unavailability (network, its 5xx, rate limits, a bad
 * key) into a 503 the caller may retry; other errors pass through.
 */
export async function callStripe<T>(
  warn: (message: string) => void,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (
      error instanceof Stripe.errors.StripeConnectionError ||
      error instanceof Stripe.errors.StripeAPIError ||
      error instanceof Stripe.errors.StripeRateLimitError ||
      error instanceof Stripe.errors.StripeAuthenticationError ||
      error instanceof Stripe.errors.StripePermissionError
    ) {
      warn(`Stripe call failed (${error.type}): ${error.message}`);
      throw unavailable('The payment provider could not be reached');
    }
    throw error;
  }
}

function unavailable(message: string): AppError {
  return new AppError(503, ERROR_CODES.serviceUnavailable, message, {
    reason: 'Payments are unavailable right now. Please try again in a few minutes.',
  });
}
