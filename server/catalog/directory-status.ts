import type { z } from 'zod';
import type { operatorDirectorySyncStatusSchema } from '#shared/api/watch.ts';
import type { Executor } from '#server/db/database.ts';
import { listDirectorySyncs } from '#server/db/repositories/store-directory-repository.ts';

// The status page lists at most this many store numbers per change; more are rare (a country's
// first read adds its whole directory) and the operator has the log.
const LISTED_STORES = 50;

type OperatorDirectorySyncStatus = z.infer<typeof operatorDirectorySyncStatusSchema>;

/** The last directory read of every country, as the operator's status shows it. */
export async function readDirectorySyncStatus(
  db: Executor,
): Promise<OperatorDirectorySyncStatus[]> {
  const rows = await listDirectorySyncs(db);
  return rows.map((row) => ({
    country_code: row.country_code,
    locale: row.locale_code,
    synced_at: row.synced_at.toISOString(),
    outcome: row.outcome as OperatorDirectorySyncStatus['outcome'],
    http_status: row.http_status,
    listed: row.listed,
    added: row.added.slice(0, LISTED_STORES),
    closed: row.closed.slice(0, LISTED_STORES),
    reopened: row.reopened.slice(0, LISTED_STORES),
    last_success_at: row.last_success_at?.toISOString() ?? null,
    error: row.error,
  }));
}
