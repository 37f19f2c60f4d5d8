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
  /** The moment rows must be due by; default the database's now (tests pass the watch's clock). */
  dueBy?: Date,
): Promise<ClaimedRow[]> {
  const due = dueBy === undefined ? sql`now()` : sql`${dueBy}::timestamptz`;
  const result = await sql<OutboxRow>`
    update alert_outbox as o
       set status = 'sending',
           locked_until = now() + make_interval(secs => ${leaseMs / 1000}),
           attempts = o.attempts + 1
     where o.id in (
       select id from alert_outbox
        where (status = 'pending' and next_attempt_at <= ${due})
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

/** One attempt's outcome to record for its claimed row. */
export type SettledAttempt = { row: ClaimedRow; outcome: AttemptOutcome };

/**
 * Records the outcomes of several attempts in one statement; answers the ids (as text) actually
 * written. A row is written only while the claim is still ours (status "sending" with the
 * attempts the claim set): a row missing from the answer lost its lease to a newer claim,
 * whose outcome decides. One statement per batch: a burst of alerts would otherwise commit
 * (and flush the WAL) once per email.
 */
export async function recordAttemptOutcomes(
  db: Executor,
  attempts: readonly SettledAttempt[],
): Promise<Set<string>> {
  if (attempts.length === 0) {
    return new Set();
  }
  const values = attempts.map(({ row, outcome }) => {
    const note =
      outcome.status === 'sent'
        ? (outcome.note ?? null)
        : outcome.status === 'pending'
          ? outcome.error
          : outcome.reason;
    const retrySeconds = outcome.status === 'pending' ? outcome.retryInMs / 1000 : 0;
    return sql`(${row.id}::bigint, ${row.attempt}::integer, ${outcome.status}::text, ${note}::text, ${retrySeconds}::double precision)`;
  });
  const result = await sql<{ id: string }>`
    update alert_outbox as o
       set status = v.status,
           locked_until = null,
           last_error = v.note,
           sent_at = case when v.status = 'sent' then now() else o.sent_at end,
           next_attempt_at = case
             when v.status = 'pending' then now() + make_interval(secs => v.retry_seconds)
             else o.next_attempt_at end
      from (values ${sql.join(values)}) as v(id, attempt, status, note, retry_seconds)
     where o.id = v.id and o.status = 'sending' and o.attempts = v.attempt
    returning o.id`.execute(db);
  return new Set(result.rows.map((row) => String(row.id)));
}
