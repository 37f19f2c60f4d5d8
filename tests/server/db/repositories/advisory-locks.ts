// Probes of the advisory locks writers take, from a session outside the transactions tested.
import { sql } from 'kysely';
import type { Executor } from '#server/db/database.ts';

/** How long and how often the lock tests poll PostgreSQL (expect.poll). */
export const POLL = { timeout: 10_000, interval: 10 };

/** Whether another session could take the store's lock now (a probe outside both transactions). */
export async function isStoreFree(db: Executor, storeId: string): Promise<boolean> {
  const { rows } = await sql<{ is_free: boolean }>`
    select pg_try_advisory_lock(hashtext(${`shelfwatch:store:${storeId}`})) as is_free`.execute(db);
  const isFree = rows[0]?.is_free === true;
  if (isFree) {
    await sql`select pg_advisory_unlock(hashtext(${`shelfwatch:store:${storeId}`}))`.execute(db);
  }
  return isFree;
}

/** Advisory locks of `mode` a session of this test's database is waiting for. */
export async function countWaitingAdvisoryLocks(db: Executor, mode: string): Promise<number> {
  const { rows } = await sql<{ waiting: number }>`
    select count(*)::int as waiting from pg_locks
    where locktype = 'advisory' and mode = ${mode} and not granted
      and database = (select oid from pg_database where datname = current_database())`.execute(db);
  return rows[0]?.waiting ?? 0;
}
