import { sql } from 'kysely';
import type { Db } from './database.ts';

/** PostgreSQL schema pg-boss keeps its queues in (pg-boss's own default). */
export const QUEUE_SCHEMA = 'pgboss';

// The queue names live here, not beside pg-boss in watcher.ts: the API's metrics read the
// queue's length without loading pg-boss at start (issue 30).
/** pg-boss queue that plans a cycle; one queued and one running at most. */
export const WATCH_CYCLE_QUEUE = 'shelfwatch-watch-cycle';
/** pg-boss queue of one planned upstream request; its singleton key is the request. */
export const WATCH_POLL_QUEUE = 'shelfwatch-watch-poll';

/**
 * Oldest pg-boss schema version the installed pg-boss migrates from on `start()`: pg-boss 11
 * rewrote its tables (version 25), and 12 refuses anything older instead of migrating it.
 */
const OLDEST_MIGRATABLE_VERSION = 25;

/**
 * Drops a queue schema left by pg-boss 10 or older, so pg-boss installs a fresh one on
 * `start()` instead of refusing to start. Nothing of value is lost: a cycle is requested on
 * every start, poll jobs are planned again from poll_targets, and alerts live in alert_outbox,
 * not in pg-boss. Returns the version dropped, or undefined when there was nothing to drop.
 */
export async function dropLegacyQueueSchema(db: Db): Promise<number | undefined> {
  return await db.transaction().execute(async (trx) => {
    // pg-boss's own install and migration lock: a worker starting beside this one waits
    // here rather than seeing a half-dropped schema, and never drops one just installed.
    await sql`select pg_advisory_xact_lock(('x' || encode(sha224((current_database() || ${`.pgboss.${QUEUE_SCHEMA}`})::bytea), 'hex'))::bit(64)::bigint)`.execute(
      trx,
    );
    const table = await sql<{
      name: string | null;
    }>`select to_regclass(${`${QUEUE_SCHEMA}.version`})::text as name`.execute(trx);
    if (table.rows[0]?.name === null || table.rows[0]?.name === undefined) return undefined;
    const installed = await sql<{ version: number }>`select version from ${sql.table(
      `${QUEUE_SCHEMA}.version`,
    )}`.execute(trx);
    const version = installed.rows[0]?.version;
    if (version === undefined || version >= OLDEST_MIGRATABLE_VERSION) return undefined;
    await sql`drop schema ${sql.id(QUEUE_SCHEMA)} cascade`.execute(trx);
    return version;
  });
}
