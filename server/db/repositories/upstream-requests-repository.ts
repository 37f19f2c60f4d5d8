import { sql, type Selectable } from 'kysely';
import type { Executor } from '../database.ts';
import type { UpstreamHostsTable } from '../schema.ts';

// Every request sent to Apple, per host: the log `/v2/status` reads for error rates and
// cool-downs (kept a day), and each host's last success and block.

/** An upstream host row. */
export type UpstreamHostRow = Selectable<UpstreamHostsTable>;

/** Every upstream host seen so far. */
export async function listUpstreamHosts(db: Executor): Promise<UpstreamHostRow[]> {
  return await db.selectFrom('upstream_hosts').selectAll().orderBy('host').execute();
}

/** One upstream host, or undefined before its first request. */
export async function findUpstreamHost(
  db: Executor,
  host: string,
): Promise<UpstreamHostRow | undefined> {
  return await db
    .selectFrom('upstream_hosts')
    .selectAll()
    .where('host', '=', host)
    .executeTakeFirst();
}

/** Logs one upstream request and updates the host's health; a cool-down only ever extends. */
export async function recordUpstreamRequest(
  db: Executor,
  request: {
    host: string;
    requestedAt: Date;
    durationMs: number;
    failureKind: string | null;
    coolDownUntil: Date | null;
  },
): Promise<void> {
  const isSuccess = request.failureKind === null;
  await db
    .insertInto('upstream_requests')
    .values({
      host: request.host,
      requested_at: request.requestedAt,
      is_success: isSuccess,
      failure_kind: request.failureKind,
      duration_ms: Math.round(request.durationMs),
    })
    .execute();
  const values = isSuccess
    ? { host: request.host, last_success_at: request.requestedAt, consecutive_failures: 0 }
    : {
        host: request.host,
        last_failure_at: request.requestedAt,
        last_failure_kind: request.failureKind,
        cool_down_until: request.coolDownUntil,
        consecutive_failures: 1,
      };
  await db
    .insertInto('upstream_hosts')
    .values(values)
    .onConflict((conflict) =>
      conflict.column('host').doUpdateSet((eb) =>
        isSuccess
          ? { last_success_at: eb.ref('excluded.last_success_at'), consecutive_failures: 0 }
          : {
              last_failure_at: eb.ref('excluded.last_failure_at'),
              last_failure_kind: eb.ref('excluded.last_failure_kind'),
              cool_down_until: sql<Date | null>`greatest(upstream_hosts.cool_down_until, excluded.cool_down_until)`,
              consecutive_failures: eb('upstream_hosts.consecutive_failures', '+', 1),
            },
      ),
    )
    .execute();
}

/** Deletes request log rows older than `before`; returns how many. */
export async function pruneUpstreamRequests(db: Executor, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('upstream_requests')
    .where('requested_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Requests and failures per host since `since`. */
export async function countRecentRequests(
  db: Executor,
  since: Date,
): Promise<{ host: string; total: number; failures: number; first_failure_at: Date | null }[]> {
  const rows = await db
    .selectFrom('upstream_requests')
    .select('host')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .select(sql<number>`count(*) filter (where not is_success)`.as('failures'))
    .select(
      sql<Date | null>`min(requested_at) filter (where not is_success)`.as('first_failure_at'),
    )
    .where('requested_at', '>=', since)
    .groupBy('host')
    .execute();
  return rows.map((row) => ({ ...row, total: Number(row.total), failures: Number(row.failures) }));
}

/** Earliest failed request (to `host`, or any) after `after`: when checks started failing; null if none. */
export async function findFirstFailureAfter(
  db: Executor,
  host: string | null,
  after: Date | null,
): Promise<Date | null> {
  let query = db
    .selectFrom('upstream_requests')
    .select((eb) => eb.fn.min('requested_at').as('first'))
    .where('is_success', '=', false);
  if (host !== null) query = query.where('host', '=', host);
  if (after !== null) query = query.where('requested_at', '>', after);
  const row = await query.executeTakeFirst();
  return (row?.first as Date | null | undefined) ?? null;
}
