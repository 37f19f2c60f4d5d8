import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

/**
 * SQLSTATEs with which PostgreSQL ends a transaction that may well succeed when run again: a
 * deadlock's victim (40P01) and a serialization failure (40001).
 */
const RETRYABLE_CODES = new Set(['40P01', '40001']);

/** Runs of one transaction at most, the first included. */
const DEFAULT_ATTEMPTS = 3;

/** Whether PostgreSQL ended a transaction with `error` only because of a concurrent one. */
function isRetryableTransactionError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    RETRYABLE_CODES.has(error.code)
  );
}

/**
 * Runs `work` in a transaction, and again in a new one when PostgreSQL ends it as a
 * deadlock's victim or for a serialization failure (up to `attempts` runs in all). Writers
 * take their locks in one order (docs/architecture.md), but a neighbour recorded while a
 * search is edited can still close a cycle; the victim then rolls back whole, so its work
 * can be run again from the start. `work` must only touch the database.
 */
export async function runRetryingTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
  options: { attempts?: number } = {},
): Promise<T> {
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= attempts || !isRetryableTransactionError(error)) throw error;
    }
  }
}
