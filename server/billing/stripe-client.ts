import Stripe from 'stripe';
import { PLANS, type PlanCode } from '#shared/domain/plans.ts';

/** Where the Stripe client sends its requests; tests point it at a local stand-in. */
export type StripeConnection = { host: string; port: number; protocol: 'http' | 'https' };

/** The Stripe settings of an installation (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET). */
export type StripeSettings = { stripeSecretKey: string; webhookSecret: string };

/**
 * The official client for `secretKey`, at api.stripe.com unless `connection` says otherwise.
 * Requests time out after 20 s: post_checkout and checkout wait on them with a person watching.
 */
export function createStripeClient(secretKey: string, connection?: StripeConnection): Stripe {
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Shelfwatch' },
    ...(connection === undefined
      ? {}
      : { host: connection.host, port: connection.port, protocol: connection.protocol }),
  });
}

/** The plan a price's lookup key stands for (basic: Better, premium: Premium); null for others. */
export function findPlanOfLookupKey(lookupKey: string | null | undefined): PlanCode | null {
  if (lookupKey === null || lookupKey === undefined) {
    return null;
  }
  const plan = PLANS.find(
    (candidate) =>
      candidate.lookupKeys !== null &&
      (candidate.lookupKeys.monthly === lookupKey || candidate.lookupKeys.annual === lookupKey),
  );
  return plan?.code ?? null;
}

/** The id of an expandable Stripe reference (a customer, a subscription). */
export function readStripeId(reference: string | { id: string } | null | undefined): string | null {
  if (reference === null || reference === undefined) {
    return null;
  }
  return typeof reference === 'string' ? reference : reference.id;
}
