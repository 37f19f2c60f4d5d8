import { sql } from 'kysely';
import type { Executor } from '#server/db/database.ts';
import { mergeAlertItems, parseAlertPayload } from './alert-payload.ts';
import type { AlertToEnqueue } from './alert-types.ts';

/**
 * PostgreSQL channel the delivery worker LISTENs on. NOTIFY is transactional: it reaches
 * listeners only when the enqueuing transaction commits, and never if it rolls back, which
 * is exactly the guarantee pg-boss's `db` option would give, without a second queue table
 * duplicating alert_outbox (the outbox rows already are the durable queue).
 */
export const OUTBOX_NOTIFY_CHANNEL = 'shelfwatch_alert_outbox';

/**
 * Writes alerts (one row per search, channel and wave) to the outbox inside the caller's
 * transaction and wakes the delivery workers once it commits. A key already present is
 * skipped; returns the rows inserted.
 */
export async function enqueueAlerts(
  trx: Executor,
  alerts: readonly AlertToEnqueue[],
): Promise<number> {
  if (alerts.length === 0) {
    return 0;
  }
  const inserted = await trx
    .insertInto('alert_outbox')
    .values(
      alerts.map((alert) => ({
        idempotency_key: alert.idempotencyKey,
        channel: alert.channel,
        user_id: alert.userId,
        search_id: alert.searchId,
        user_channel_id: alert.userChannelId ?? null,
        payload: JSON.stringify(alert.payload),
        ...(alert.notBefore === undefined ? {} : { next_attempt_at: alert.notBefore }),
      })),
    )
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .returning('id')
    .execute();
  if (inserted.length > 0) {
    await sql`select pg_notify(${OUTBOX_NOTIFY_CHANNEL}, ${String(inserted.length)})`.execute(trx);
  }
  return inserted.length;
}

/**
 * Adds waves held by quiet hours to their summary row (key: search, channel, end of the
 * window), creating it when it is the night's first. The row stays `pending` with
 * next_attempt_at at the window's end, so until then no worker can claim it and merging into
 * it is safe; the row lock (FOR UPDATE) orders concurrent waves. Should the summary already
 * be claimed (a wave observed right at the end), the wave becomes a row of its own under
 * `fallbackKey`, so nothing is lost and nothing sent twice. Returns rows inserted.
 */
export async function enqueueHeldAlerts(
  trx: Executor,
  alerts: readonly (AlertToEnqueue & { notBefore: Date; fallbackKey: string })[],
): Promise<number> {
  let inserted = 0;
  for (const alert of alerts) {
    const { fallbackKey, ...summary } = alert;
    if ((await enqueueAlerts(trx, [summary])) === 1) {
      inserted += 1;
      continue;
    }
    const held = await trx
      .selectFrom('alert_outbox')
      .select(['id', 'status', 'payload'])
      .where('idempotency_key', '=', alert.idempotencyKey)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const parsed = parseAlertPayload(held.payload);
    if (held.status !== 'pending' || !parsed.isValid) {
      inserted += await enqueueAlerts(trx, [{ ...summary, idempotencyKey: fallbackKey }]);
      continue;
    }
    const payload = {
      ...parsed.payload,
      items: mergeAlertItems(parsed.payload.items, alert.payload.items),
    };
    await trx
      .updateTable('alert_outbox')
      .set({ payload: JSON.stringify(payload) })
      .where('id', '=', held.id)
      .execute();
  }
  return inserted;
}
