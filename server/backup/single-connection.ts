import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import pg from 'pg';
import type { Database } from '#server/db/schema.ts';

/** One PostgreSQL connection, reachable both raw (COPY streams) and through kysely. */
export type SingleConnection = {
  client: pg.Client;
  db: Kysely<Database>;
  close: () => Promise<void>;
};

/**
 * Opens one connection to `connectionString`. COPY streams need the raw pg client while
 * migrations and catalog queries go through kysely; both must run inside the same
 * transaction, so kysely gets a "pool" that always hands out this one client.
 */
export async function openSingleConnection(connectionString: string): Promise<SingleConnection> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  // A dropped connection fails the query in flight; without a listener it would also crash.
  client.on('error', () => undefined);
  // COPY text follows these settings: fixed ones make a file read back the same whatever the
  // server's or role's defaults are on either side (what pg_dump does too).
  await client.query(
    "SET DateStyle = 'ISO'; SET IntervalStyle = 'postgres'; SET extra_float_digits = 3; SET client_encoding = 'UTF8'",
  );
  const pool: PostgresPool = {
    connect: () => Promise.resolve(Object.assign(client, { release: () => undefined })),
    end: () => Promise.resolve(),
    // Only used to cancel a running query from a second connection, which nothing here does.
    options: {},
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    client,
    db,
    close: async () => {
      await db.destroy();
      await client.end();
    },
  };
}
