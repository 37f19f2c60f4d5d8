import { createHmac, randomBytes } from 'node:crypto';
import { failureForStatus, postJson, type ChannelHttp } from './channel-http.ts';
import type { StoredChannel } from './channel-config.ts';

type WebhookChannel = Extract<StoredChannel, { kind: 'webhook' }>;

/** The header carrying the signature (docs/channels.md). */
export const SIGNATURE_HEADER = 'X-Shelfwatch-Signature';

/** A new signing secret, shown to the user once: "whsec_" and 32 random bytes. */
export function createSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` keyed with the whole secret string,
 * the scheme Stripe uses: receivers recompute it and refuse old timestamps (replays).
 */
export function signWebhookBody(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}

/** POSTs the JSON body signed; any 2xx is delivered, the rest is classified by status. */
export async function sendWebhook(
  http: ChannelHttp,
  channel: WebhookChannel,
  body: string,
  delivery: { id: string; event: string; now: () => number },
): Promise<{ note: string }> {
  const timestamp = Math.floor(delivery.now() / 1000);
  const answer = await postJson(http, {
    url: channel.secret.url,
    receiver: 'The webhook',
    isUserTarget: true,
    headers: {
      [SIGNATURE_HEADER]: signWebhookBody(channel.secret.signing_secret, body, timestamp),
      'X-Shelfwatch-Event': delivery.event,
      'X-Shelfwatch-Delivery': delivery.id,
    },
    body,
  });
  if (answer.status >= 200 && answer.status < 300) return { note: `webhook ${answer.status}` };
  throw failureForStatus('The webhook', answer.status);
}
