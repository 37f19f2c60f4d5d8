import { sql, type Selectable } from 'kysely';
import type { Executor } from '#server/db/database.ts';
import type { AlertOutboxTable } from '#server/db/schema.ts';

/** An outbox row as read. */
export type OutboxRow = Selectable<AlertOutboxTable>;

/**
 * A row this worker holds: `attempt` is the row's attempts value written by the claim and
 * acts as a fencing token, so a worker whose lease ran out cannot overwrite the outcome of
 * the worker that re-claimed the row after it.
 */
export type ClaimedRow = OutboxRow & { attempt: number };

/**
 * Claims up to `limit` due rows: pending ones whose retry time has come, and "sending" ones
 * whose lease expired because their worker died. SKIP LOCKED lets any number of workers
 * claim concurrently without waiting on or double-claiming each other's rows.
 */
export async function claimDueRows(
  db: Executor,
  limit: number,
  leaseMs: number,
): Promise<ClaimedRow[]> {
  const result = await sql<OutboxRow>`
    update alert_outbox as o
       set status = 'sending',
           locked_until = now() + make_interval(secs => ${leaseMs / 1000}),
           attempts = o.attempts + 1
     where o.id in (
       select id from alert_outbox
        where (status = 'pending' and next_attempt_at <= now())
           or (status = 'sending' and locked_until < now())
        order by next_attempt_at, id
        limit ${limit}
        for update skip locked)
    returning o.*`.execute(db);
  return result.rows.map((row) => ({ ...row, attempt: row.attempts }));
}

/** Outcome of a delivery attempt, written only while the claim is still ours. */
export type AttemptOutcome =
  | { status: 'sent'; note?: string }
  | { status: 'suppressed' | 'failed'; reason: string }
  | { status: 'pending'; error: string; retryInMs: number };

/** Records an attempt's outcome; false when the lease was lost to another worker meanwhile. */
export async function recordAttemptOutcome(
  db: Executor,
  row: ClaimedRow,
  outcome: AttemptOutcome,
): Promise<boolean> {
  const base = db
    .updateTable('alert_outbox')
    .where('id', '=', row.id)
    .where('status', '=', 'sending')
    .where('attempts', '=', row.attempt);
  let query;
  switch (outcome.status) {
    case 'sent':
      query = base.set({
        status: 'sent',
        sent_at: sql<Date>`now()`,
        locked_until: null,
        last_error: outcome.note ?? null,
      });
      break;
    case 'suppressed':
    case 'failed':
      query = base.set({ status: outcome.status, locked_until: null, last_error: outcome.reason });
      break;
    case 'pending':
      query = base.set({
        status: 'pending',
        locked_until: null,
        last_error: outcome.error,
        next_attempt_at: sql<Date>`now() + make_interval(secs => ${outcome.retryInMs / 1000})`,
      });
      break;
  }
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
