import { sql } from 'kysely';
import type { Executor } from '#server/db/database.ts';
import { decideCadence, DEFAULT_ALERT_CADENCE_MINUTES } from '#shared/watch/alert-cadence.ts';
import { isAtSearchStore, mergeAlertItems, parseAlertPayload } from './alert-payload.ts';
import type { AlertToEnqueue } from './alert-types.ts';
import { enqueueAlerts, enqueueHeldAlerts, OUTBOX_NOTIFY_CHANNEL } from './outbox.ts';

const MINUTE_MS = 60_000;

/** The channel part of a row: `email`, `text`, `push` or `<kind>:<user channel id>`. */
function channelKeyOf(alert: AlertToEnqueue): string {
  return alert.userChannelId === undefined
    ? alert.channel
    : `${alert.channel}:${alert.userChannelId}`;
}

/** Key of the row collecting a search's waves for one channel until `releaseAt`. */
function waitingKeyOf(alert: AlertToEnqueue, releaseAt: Date): string {
  // Wave keys are "<search>:<store>:<part>:<event>:<channel...>"; ids hold no colons.
  const channelPart = alert.idempotencyKey.split(':').slice(4).join(':');
  return `${alert.searchId}:cadence:${releaseAt.toISOString()}:${channelPart}`;
}

/** Cadence of each search, in minutes. */
async function readCadences(
  trx: Executor,
  searchIds: readonly string[],
): Promise<Map<string, number>> {
  if (searchIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('searches')
    .select(['id', 'alert_cadence_minutes'])
    .where('id', 'in', [...new Set(searchIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.alert_cadence_minutes]));
}

/**
 * The cadence state of one search and channel, locked for this transaction (created on first
 * use), so two answers applied at once for one search serialise here and cannot both decide
 * that "the next message goes now".
 */
async function lockCadenceState(
  trx: Executor,
  searchId: string,
  channelKey: string,
): Promise<{
  lastReleaseAt: Date | null;
  pendingKey: string | null;
  pendingReleaseAt: Date | null;
}> {
  await sql`
    insert into search_alert_cadence (search_id, channel_key, last_release_at)
    values (${searchId}, ${channelKey}, null)
    on conflict do nothing`.execute(trx);
  const row = await trx
    .selectFrom('search_alert_cadence')
    .select(['last_release_at', 'pending_key', 'pending_release_at'])
    .where('search_id', '=', searchId)
    .where('channel_key', '=', channelKey)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return {
    lastReleaseAt: row.last_release_at,
    pendingKey: row.pending_key,
    pendingReleaseAt: row.pending_release_at,
  };
}

/** The waiting row if it is still unclaimed and never tried (merging into it is then safe). */
async function lockPendingRow(
  trx: Executor,
  key: string | null,
): Promise<{ id: string; payload: unknown } | undefined> {
  if (key === null) return undefined;
  const row = await trx
    .selectFrom('alert_outbox')
    .select(['id', 'status', 'attempts', 'payload'])
    .where('idempotency_key', '=', key)
    .forUpdate()
    .executeTakeFirst();
  return row === undefined || row.status !== 'pending' || row.attempts > 0 ? undefined : row;
}

/**
 * Writes a wave's rows (quiet hours already applied) under each search's cadence (issue 42):
 * per search and channel at most one message within `alert_cadence_minutes`, carrying every
 * pair that came in meanwhile. A row that may go now goes under its wave key; one inside the
 * cadence joins the row waiting for the cadence to pass (`<search>:cadence:<release ISO>:
 * <channel>`, pending until then, merged like a quiet-hours summary). A pair at the search's
 * own store (every alerted model is a preferred one) cannot wait: it releases the waiting row
 * at once with everything in it. Times are the answer's `observedAt`, the watch's clock.
 * Returns rows inserted.
 */
export async function enqueueWithCadence(
  trx: Executor,
  alerts: readonly AlertToEnqueue[],
  observedAt: Date,
): Promise<number> {
  const cadences = await readCadences(
    trx,
    alerts.map((alert) => alert.searchId),
  );
  let inserted = 0;
  // A fixed order of state locks keeps two concurrent waves from deadlocking.
  const ordered = [...alerts].sort((a, b) =>
    `${a.searchId}|${channelKeyOf(a)}`.localeCompare(`${b.searchId}|${channelKeyOf(b)}`),
  );
  for (const alert of ordered) {
    const cadenceMinutes = cadences.get(alert.searchId) ?? DEFAULT_ALERT_CADENCE_MINUTES;
    if (cadenceMinutes <= 0) {
      inserted += await enqueueAlerts(trx, [{ ...alert, notBefore: observedAt }]);
      continue;
    }
    const channelKey = channelKeyOf(alert);
    const state = await lockCadenceState(trx, alert.searchId, channelKey);
    const pending = await lockPendingRow(trx, state.pendingKey);
    const decision = decideCadence({
      lastReleaseAt: state.lastReleaseAt?.getTime() ?? null,
      pendingReleaseAt: pending === undefined ? null : (state.pendingReleaseAt?.getTime() ?? null),
      now: observedAt.getTime(),
      cadenceMs: cadenceMinutes * MINUTE_MS,
      isUrgent: alert.payload.items.some(isAtSearchStore),
    });
    const releaseAt = new Date(decision.releaseAt);
    const isNow = decision.releaseAt <= observedAt.getTime();
    if (decision.joinsPending && pending !== undefined) {
      const parsed = parseAlertPayload(pending.payload);
      const items = parsed.isValid
        ? mergeAlertItems(parsed.payload.items, alert.payload.items)
        : alert.payload.items;
      const payload = parsed.isValid ? { ...parsed.payload, items } : alert.payload;
      await trx
        .updateTable('alert_outbox')
        .set({ payload: JSON.stringify(payload), next_attempt_at: releaseAt })
        .where('id', '=', pending.id)
        .execute();
      if (isNow) await sql`select pg_notify(${OUTBOX_NOTIFY_CHANNEL}, '1')`.execute(trx);
    } else if (isNow) {
      inserted += await enqueueAlerts(trx, [{ ...alert, notBefore: observedAt }]);
    } else {
      inserted += await enqueueHeldAlerts(trx, [
        {
          ...alert,
          idempotencyKey: waitingKeyOf(alert, releaseAt),
          fallbackKey: `${alert.idempotencyKey}:cadence`,
          notBefore: releaseAt,
          payload: { ...alert.payload, cadenceMinutes },
        },
      ]);
    }
    const waitingKey = isNow
      ? null
      : decision.joinsPending
        ? state.pendingKey
        : waitingKeyOf(alert, releaseAt);
    await trx
      .updateTable('search_alert_cadence')
      .set({
        last_release_at: releaseAt,
        pending_key: waitingKey,
        pending_release_at: isNow ? null : releaseAt,
      })
      .where('search_id', '=', alert.searchId)
      .where('channel_key', '=', channelKey)
      .execute();
  }
  return inserted;
}
