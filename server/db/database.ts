import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { createPreparingPool } from './prepared-statements.ts';
import type { Database } from './schema.ts';

/** The application's database handle. */
export type Db = Kysely<Database>;

/** Either the database or a transaction on it; every repository method accepts one. */
export type Executor = Kysely<Database> | Transaction<Database>;

// Return BIGINT counts as numbers: they are row counts, far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * Opens a pooled connection to `connectionString`, running repeated statements prepared
 * (see createPreparingPool); `warn` reports dropped idle connections.
 */
export function createDatabase(
  connectionString: string,
  maxConnections = 10,
  warn: (line: string) => void = (line) => console.error(line),
): Db {
  const pool = new pg.Pool({ connectionString, max: maxConnections });
  // An idle connection dropped by the server (restart, shutdown) must not crash the process;
  // the pool replaces it and the next query reports any lasting problem.
  pool.on('error', (error) => warn(`database connection lost: ${error.message}`));
  // A connection checked out of the pool has no listener of the pool's: a server that goes
  // away between two of its queries (a restart, a crash) would throw out of the process.
  // The query in flight, if any, still fails by itself and is answered 503.
  pool.on('connect', (client) => {
    client.on('error', (error) => warn(`database connection lost: ${error.message}`));
  });
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool: createPreparingPool(pool), controlClient: pg.Client }),
  });
}
