import pg from 'pg';
import { sql } from 'kysely';
import type { Executor } from '#server/db/database.ts';
import type { Logger } from '#server/logging/logger.ts';
import { markCatalogChanged } from './catalog-cache.ts';

// A catalog change made by another process (`shelfwatch catalog import-models` in a terminal,
// the sync schedule of another server) reaches this one's caches at once through PostgreSQL
// NOTIFY, instead of when they next expire: a new type shows in the picker without a restart.

/** The PostgreSQL channel catalog changes are announced on. */
export const CATALOG_CHANNEL = 'shelfwatch_catalog_changed';

/** Announces a catalog change; inside a transaction it is delivered when that commits. */
export async function notifyCatalogChanged(db: Executor): Promise<void> {
  await sql`SELECT pg_notify(${CATALOG_CHANNEL}, '')`.execute(db);
}

/** Listens for catalog changes of other processes and marks this process's caches stale. */
export async function listenForCatalogChanges(
  connectionString: string,
  log: Pick<Logger, 'warn'>,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let isStopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString });
    next.on('notification', () => markCatalogChanged());
    next.on('error', (error) => {
      log.warn({ err: error }, 'catalog change listener lost its connection; reconnecting');
      void next.end().catch(() => undefined);
      if (client === next) client = undefined;
      if (!isStopped) {
        // Changes made while disconnected would go unseen until the cache expires: reload now.
        markCatalogChanged();
        retry = setTimeout(() => void connect().catch(() => undefined), 5_000);
        retry.unref();
      }
    });
    await next.connect();
    await next.query(`LISTEN ${CATALOG_CHANNEL}`);
    client = next;
  };
  await connect();
  return async () => {
    isStopped = true;
    if (retry !== undefined) clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
