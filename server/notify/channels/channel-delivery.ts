import { isPaidPlan } from '#shared/domain/plans.ts';
import type { Executor } from '#server/db/database.ts';
import type { SearchRow, UserChannelKind, UserRow } from '#server/db/schema.ts';
import { retryWrite } from '#server/db/retrying-write.ts';
import { classifyDeliveryError } from '../delivery-error.ts';
import { ChannelSendError } from './channel-http.ts';
import type { AttemptOutcome } from '../outbox-claims.ts';
import type { ChannelDispatcher } from './channel-dispatch.ts';
import { CHANNEL_KINDS } from '#shared/api/channels.ts';
import { parseAlertPayload } from '../alert-payload.ts';
import {
  findBuyPagePath,
  findChannelById,
  listExcludedChannelIds,
  recordChannelFailure,
  recordChannelSuccess,
} from '#server/db/repositories/channel-repository.ts';

/** Whether an outbox row's channel is one of the users' own kinds. */
export function isUserChannelKind(channel: string): channel is UserChannelKind {
  return (CHANNEL_KINDS as readonly string[]).includes(channel);
}

/** The outbox row fields a channel delivery reads. */
export type ChannelOutboxRow = {
  idempotency_key: string;
  user_id: string;
  user_channel_id: string | null;
  payload: unknown;
};

/**
 * Sends one outbox row to the user's channel it names, after re-checking what may have
 * changed since it was enqueued (account switch, search, plan, channel deleted, paused or no
 * longer used by the search). Every attempt the receiver answers counts toward the channel's
 * health: a success starts the count over, PAUSE_AFTER_FAILURES failures in a row pause the
 * channel (the row then fails instead of retrying, and My Account shows why). Other failures
 * are thrown for the worker's retry policy, exactly as the built-in channels do. A success
 * whose record cannot be written (after retries) is still a success.
 */
export async function deliverToUserChannel(
  db: Executor,
  dispatcher: ChannelDispatcher,
  row: ChannelOutboxRow,
  target: { user: UserRow | undefined; search: SearchRow | undefined },
): Promise<AttemptOutcome> {
  const parsed = parseAlertPayload(row.payload);
  if (!parsed.isValid) return { status: 'failed', reason: `invalid payload: ${parsed.reason}` };
  const alert = parsed.payload;
  const { user, search } = target;
  if (user === undefined) return { status: 'suppressed', reason: 'user_deleted' };
  if (!user.enable_notifications) return { status: 'suppressed', reason: 'notifications_disabled' };
  if (search === undefined) return { status: 'suppressed', reason: 'search_deleted' };
  if (search.paused_at !== null) return { status: 'suppressed', reason: 'search_paused' };
  if (!isPaidPlan(user.plan)) return { status: 'suppressed', reason: 'plan_excludes_channels' };
  const channel =
    row.user_channel_id === null ? undefined : await findChannelById(db, row.user_channel_id);
  if (channel?.user_id !== row.user_id) {
    return { status: 'suppressed', reason: 'channel_deleted' };
  }
  if (channel.paused_at !== null) return { status: 'suppressed', reason: 'channel_paused' };
  if ((await listExcludedChannelIds(db, search.id)).has(channel.id)) {
    return { status: 'suppressed', reason: 'channel_not_used_by_search' };
  }
  const first = alert.items[0];
  const buyPagePath =
    first === undefined ? null : await findBuyPagePath(db, first.countryCode, first.partNumber);
  let sent: { note: string };
  try {
    sent = await dispatcher.sendAlert(channel, alert, {
      id: row.idempotency_key,
      buyPagePath,
      ...(user.time_zone === null ? {} : { timeZone: user.time_zone }),
    });
  } catch (error) {
    // Only the receiver's failures count toward the channel's health, in our words; anything
    // else (our database, a bug) is retried by the worker without blaming the channel.
    if (!(error instanceof ChannelSendError)) throw classifyDeliveryError(error);
    const isPaused = await recordChannelFailure(db, channel.id, error.message);
    if (isPaused) {
      return { status: 'failed', reason: `${error.message} (channel paused)` };
    }
    throw error;
  }
  // Delivered: a failing write from here on must neither fail the row nor send it again.
  const isRecorded = await retryWrite(() => recordChannelSuccess(db, channel.id)).then(
    () => true,
    () => false,
  );
  return {
    status: 'sent',
    note: isRecorded ? sent.note : `${sent.note} (the channel's success was not recorded)`,
  };
}
