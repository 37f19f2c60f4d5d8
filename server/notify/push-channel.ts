import { createHash } from 'node:crypto';
import type { Agent } from 'node:https';
import { loadOnFirstUse } from '#server/base/load-on-first-use.ts';
import { DeliveryError } from './delivery-error.ts';
import type { VapidKeys } from './secrets.ts';
import type { PushContent } from './templates.ts';

/** web-push (with its ASN.1 and big-number packages) loads with the first push sent, not at start. */
const loadWebPush = loadOnFirstUse(async () => (await import('web-push')).default);

/** A browser subscription as web-push needs it. */
export type PushTarget = { endpoint: string; keys: { p256dh: string; auth: string } };

/** What happened at one subscription: delivered, or gone for good (delete it). */
export type PushResult = 'sent' | 'gone';

/** Sends one encrypted push message to one subscription. */
export type PushSender = (
  target: PushTarget,
  content: PushContent,
  idempotencyKey: string,
) => Promise<PushResult>;

/** Creates the sender with this server's VAPID identity; `agent` lets tests trust a local push service. */
export function createPushSender(options: {
  vapid: VapidKeys;
  subject: string;
  agent?: Agent;
}): PushSender {
  return async (target, content, idempotencyKey) => {
    // A failed load fails this send like any other unclassified error (retried).
    const webPush = await loadWebPush();
    try {
      await webPush.sendNotification(target, JSON.stringify(content), {
        vapidDetails: {
          subject: options.subject,
          publicKey: options.vapid.publicKey,
          privateKey: options.vapid.privateKey,
        },
        TTL: 60 * 60,
        urgency: 'high',
        // Same topic for a resend: a push service still holding the first copy replaces it.
        topic: createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 32),
        contentEncoding: 'aes128gcm',
        timeout: 15_000,
        ...(options.agent === undefined ? {} : { agent: options.agent }),
      });
      return 'sent';
    } catch (error) {
      if (error instanceof webPush.WebPushError) {
        if (error.statusCode === 404 || error.statusCode === 410) {
          return 'gone';
        }
        const isRetryable = error.statusCode === 429 || error.statusCode >= 500;
        return Promise.reject(
          new DeliveryError(
            isRetryable ? 'transient' : 'permanent',
            `Push service ${error.statusCode}: ${error.body}`,
          ),
        );
      }
      throw new DeliveryError(
        'transient',
        `Push: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  };
}
