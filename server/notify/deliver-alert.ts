import type { Db } from '#server/db/database.ts';
import { deliverToUserChannel, isUserChannelKind } from './channels/channel-delivery.ts';
import type { ChannelDispatcher } from './channels/channel-dispatch.ts';
import { parseAlertPayload } from './alert-payload.ts';
import { classifyDeliveryError } from './delivery-error.ts';
import type { EmailSender } from './email-channel.ts';
import { checkEligibility } from './eligibility.ts';
import {
  deletePushSubscriptionById,
  listPushSubscriptions,
  setTextOptOutByPhone,
  type DeliveryTarget,
} from '#server/db/repositories/notify-repository.ts';
import type { AttemptOutcome, ClaimedRow } from './outbox-claims.ts';
import type { PushSender } from './push-channel.ts';
import {
  renderAlertEmail,
  renderAlertPush,
  renderAlertText,
  type RenderOptions,
} from './templates.ts';
import { createItemLinks } from './alert-links.ts';
import { markVanishedStock } from './vanished-stock.ts';
import { findBuyPagePath } from '#server/db/repositories/channel-repository.ts';
import { FALLBACK_TIME_ZONE } from '#shared/domain/alert-time.ts';
import type { TextSender } from './text-channel.ts';
import type { AlertPayload } from './alert-types.ts';
import { signUnsubscribeToken } from './unsubscribe-token.ts';

/** Everything one delivery needs besides the row. */
export type DeliveryContext = {
  db: Db;
  email: EmailSender;
  text: TextSender;
  push: PushSender;
  unsubscribeKey: Buffer;
  publicUrl: string;
  storePageBaseUrl: string;
  supportEmail: string;
  /** The users' own channels (ntfy, Discord, Telegram, webhooks). */
  channels: ChannelDispatcher;
};

/** The link to a search's page on the website. */
export function buildSearchUrl(publicUrl: string, searchId: string): string {
  return `${publicUrl}/search/${encodeURIComponent(searchId)}`;
}

/** The one-click unsubscribe link of a search (RFC 8058: HTTPS in production, signed). */
export function buildUnsubscribeUrl(publicUrl: string, key: Buffer, searchId: string): string {
  return `${publicUrl}/v2/notifications/unsubscribe?token=${encodeURIComponent(signUnsubscribeToken(key, searchId))}`;
}

/**
 * Re-checks eligibility against `target` (the user and search as read after the claim) and
 * sends one claimed row (one wave: every pair it lists, in one message) on its channel. Send
 * failures are thrown (as DeliveryError when classified) because the worker owns the retry
 * policy.
 */
export async function deliverAlert(
  context: DeliveryContext,
  row: ClaimedRow,
  target: DeliveryTarget,
): Promise<AttemptOutcome> {
  const parsed = parseAlertPayload(row.payload);
  if (!parsed.isValid) {
    return { status: 'failed', reason: `invalid payload: ${parsed.reason}` };
  }
  // Stock that sold out while the message waited (cadence, quiet hours, retries) is marked
  // gone; a message with nothing left is dropped rather than sending people for nothing.
  const checked = await markVanishedStock(context.db, parsed.payload);
  if (checked.isAllGone) {
    return { status: 'suppressed', reason: 'stock_gone' };
  }
  const payload = checked.payload;
  if (isUserChannelKind(row.channel)) {
    return await deliverToUserChannel(context.db, context.channels, { ...row, payload }, target);
  }
  const verdict = checkEligibility(row.channel, target.user, target.search);
  if (!verdict.isAllowed) {
    return { status: 'suppressed', reason: verdict.reason };
  }
  const searchUrl = buildSearchUrl(context.publicUrl, verdict.search.id);
  const options: RenderOptions = { timeZone: verdict.user.time_zone ?? FALLBACK_TIME_ZONE };
  const first = payload.items[0];
  const itemLinks = createItemLinks(
    context.storePageBaseUrl,
    first === undefined
      ? null
      : await findBuyPagePath(context.db, first.countryCode, first.partNumber),
  );
  switch (row.channel) {
    case 'email': {
      const token = signUnsubscribeToken(context.unsubscribeKey, verdict.search.id);
      const unsubscribeUrl = buildUnsubscribeUrl(
        context.publicUrl,
        context.unsubscribeKey,
        verdict.search.id,
      );
      await context.email.send({
        outboxId: row.id,
        idempotencyKey: row.idempotency_key,
        to: verdict.user.email ?? '',
        content: renderAlertEmail(payload, { ...itemLinks, searchUrl, unsubscribeUrl }, options),
        unsubscribe: {
          url: unsubscribeUrl,
          mailto: `mailto:${context.supportEmail}?subject=${encodeURIComponent(`unsubscribe ${token}`)}`,
        },
      });
      return { status: 'sent' };
    }
    case 'text': {
      const phone = verdict.user.phone_number ?? '';
      try {
        const { sid } = await context.text.send({
          outboxId: row.id,
          to: phone,
          body: renderAlertText(payload, { ...itemLinks, searchUrl }, options),
        });
        return { status: 'sent', ...(sid === undefined ? {} : { note: `twilio ${sid}` }) };
      } catch (error) {
        const failure = classifyDeliveryError(error);
        if (failure.kind === 'opted-out') {
          // The carrier knows of a STOP we missed: remember it so no other alert tries.
          await setTextOptOutByPhone(context.db, phone, true);
          return { status: 'suppressed', reason: 'text_opted_out' };
        }
        throw failure;
      }
    }
    case 'push':
      return await deliverPush(context, row, payload, searchUrl, options);
  }
}

/**
 * Fans out to every subscription of the user. Any device accepting counts as sent (a retry
 * would duplicate on the devices that did); only when none accepted is a failure retried.
 */
async function deliverPush(
  context: DeliveryContext,
  row: ClaimedRow,
  payload: AlertPayload,
  searchUrl: string,
  options: RenderOptions,
): Promise<AttemptOutcome> {
  const subscriptions = await listPushSubscriptions(context.db, row.user_id);
  const content = renderAlertPush(payload, searchUrl, options);
  let sentCount = 0;
  let firstFailure: unknown;
  for (const subscription of subscriptions) {
    const keys = { p256dh: subscription.keys.p256dh ?? '', auth: subscription.keys.auth ?? '' };
    try {
      const result = await context.push(
        { endpoint: subscription.endpoint, keys },
        content,
        row.idempotency_key,
      );
      if (result === 'gone') {
        await deletePushSubscriptionById(context.db, subscription.id);
      } else {
        sentCount += 1;
      }
    } catch (error) {
      firstFailure ??= error;
    }
  }
  if (sentCount > 0) {
    return {
      status: 'sent',
      note: `push to ${sentCount} of ${subscriptions.length} subscriptions`,
    };
  }
  if (firstFailure !== undefined) {
    throw classifyDeliveryError(firstFailure);
  }
  return { status: 'suppressed', reason: 'no_push_subscription' };
}
