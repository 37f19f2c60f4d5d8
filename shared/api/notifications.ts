import { z } from 'zod';

/** Base64url without padding, as browsers serialise PushSubscription keys. */
const base64UrlSchema = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/, 'Must be base64url');

/** GET /v2/notifications/push/public-key: the VAPID key for PushManager.subscribe(). */
export const pushPublicKeySchema = z.object({ public_key: z.string() });
/** The VAPID public key answer. */
export type PushPublicKey = z.infer<typeof pushPublicKeySchema>;

/** POST /v2/notifications/push/subscriptions: PushSubscription.toJSON() from the browser. */
export const pushSubscriptionInputSchema = z.object({
  endpoint: z
    .string()
    .max(2048)
    .url()
    .refine((value) => value.startsWith('https://'), 'Push endpoints are HTTPS URLs'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: base64UrlSchema.min(40).max(200),
    auth: base64UrlSchema.min(8).max(64),
  }),
});
/** A browser subscription as posted. */
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInputSchema>;

/** A saved subscription. */
export const pushSubscriptionSchema = z.object({
  id: z.string(),
  endpoint: z.string(),
  created_at: z.string(),
});
/** A saved subscription as answered. */
export type PushSubscription = z.infer<typeof pushSubscriptionSchema>;

/** DELETE /v2/notifications/push/subscriptions: which one to forget. */
export const pushSubscriptionDeleteSchema = z.object({ endpoint: z.string().min(1).max(2048) });

/** Query of the unsubscribe link in alert emails. */
export const unsubscribeQuerySchema = z.object({ token: z.string().min(1, 'Required').max(256) });

/** RFC 8058 one-click body (form-encoded "List-Unsubscribe=One-Click"). */
export const unsubscribeBodySchema = z.object({ 'List-Unsubscribe': z.literal('One-Click') });

/** POST /v2/notifications/unsubscribe answered as JSON (clients not asking for HTML). */
export const unsubscribeResultSchema = z.object({
  search_id: z.string(),
  send_email_updates: z.literal(false),
});
/** The unsubscribe answer. */
export type UnsubscribeResult = z.infer<typeof unsubscribeResultSchema>;

/** Form fields Twilio posts for an inbound SMS (only those the server reads are required). */
export const twilioInboundSchema = z.looseObject({ From: z.string().min(1), Body: z.string() });
