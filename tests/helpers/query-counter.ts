import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Db } from '#server/db/database.ts';
import type { Database } from '#server/db/schema.ts';

/** A database handle whose every statement (BEGIN and COMMIT included) is recorded. */
export type CountingDatabase = {
  db: Db;
  /** SQL of the statements sent since the last `reset`, in order. */
  readStatements: () => string[];
  /** Forgets the statements recorded so far. */
  reset: () => void;
  /** Statements sent while `action` runs (other work on this handle meanwhile counts too). */
  countDuring: (action: () => Promise<unknown>) => Promise<string[]>;
  destroy: () => Promise<void>;
};

/**
 * A kysely handle on `url` that records the statements it sends, through kysely's `log`
 * callback, which sees every query a connection executes, transaction statements too.
 */
export function createCountingDatabase(url: string): CountingDatabase {
  let statements: string[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  // The test database is dropped with FORCE at the end: idle connections then fail quietly.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      statements.push(event.query.sql);
    },
  });
  return {
    db,
    readStatements: () => [...statements],
    reset: () => {
      statements = [];
    },
    countDuring: async (action) => {
      statements = [];
      await action();
      return [...statements];
    },
    destroy: () => db.destroy(),
  };
}
