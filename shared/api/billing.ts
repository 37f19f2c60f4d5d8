import { z } from 'zod';

/** Price lookup keys of the payment provider (Good and Better share the basic keys). */
export const LOOKUP_KEYS = [
  'iw-basic-monthly',
  'iw-basic-yearly',
  'iw-premium-monthly',
  'iw-premium-yearly',
] as const;

/** POST /v2/account/post_checkout body. */
export const postCheckoutRequestSchema = z.object({
  session_id: z.string().trim().min(1).max(255),
});
/** POST /v2/account/post_checkout answer. */
export const postCheckoutResponseSchema = z.object({
  user_email: z.string().optional(),
  action: z.string(),
});
/** Post-checkout answer. */
export type PostCheckoutResponse = z.infer<typeof postCheckoutResponseSchema>;

/** POST /v2/account/create-portal-session body (empty object). */
export const portalSessionRequestSchema = z.object({}).strict();
/** POST /v2/account/create-portal-session answer. */
export const portalSessionResponseSchema = z.object({ session_url: z.string().url() });

/**
 * POST /v2/account/create-checkout-session body. `auth0_id` is the signed-in visitor's
 * subject at the login provider, empty for a visitor without an account (sign-up is
 * disabled: paying creates the account, announced by post_checkout's ACCOUNT_CREATED).
 */
export const checkoutSessionRequestSchema = z.object({
  lookup_key: z.enum(LOOKUP_KEYS),
  auth0_id: z.string().trim().max(255),
});
/** POST /v2/account/create-checkout-session answer. */
export const checkoutSessionResponseSchema = z.object({ checkout_url: z.string().url() });

/** POST /v2/billing/webhook answer (Stripe only looks at the 2xx status). */
export const billingWebhookResponseSchema = z.object({ received: z.literal(true) });
