import { sql } from 'kysely';
import type { Executor } from '#server/db/database.ts';
import type { AlertToEnqueue } from './types.ts';

/**
 * PostgreSQL channel the delivery worker LISTENs on. NOTIFY is transactional: it reaches
 * listeners only when the enqueuing transaction commits, and never if it rolls back, which
 * is exactly the guarantee pg-boss's `db` option would give, without a second queue table
 * duplicating alert_outbox (the outbox rows already are the durable queue).
 */
export const OUTBOX_NOTIFY_CHANNEL = 'shelfwatch_alert_outbox';

/**
 * Writes alerts to the outbox inside the caller's transaction and wakes the delivery
 * workers once it commits. A key already present is skipped; returns the rows inserted.
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
        payload: JSON.stringify(alert.payload),
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
