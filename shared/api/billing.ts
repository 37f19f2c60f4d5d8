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

/** POST /v2/account/create-checkout-session body. */
export const checkoutSessionRequestSchema = z.object({
  lookup_key: z.enum(LOOKUP_KEYS),
  auth0_id: z.string().trim().min(1).max(255),
});
/** POST /v2/account/create-checkout-session answer. */
export const checkoutSessionResponseSchema = z.object({ checkout_url: z.string().url() });
