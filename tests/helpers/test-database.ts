import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, type Db } from '#server/db/database.ts';
import { migrateToLatest } from '#server/db/migrate.ts';

/** A fresh, migrated database of its own for one test file. */
export type TestDatabase = { db: Db; url: string; drop: () => Promise<void> };

/** Creates an empty database on the run's PostgreSQL; `isMigrated` false leaves it bare. */
export async function createTestDatabase(
  options: { isMigrated?: boolean } = {},
): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `shelfwatch_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = createDatabase(url.toString(), 5);
  if (options.isMigrated !== false) {
    await migrateToLatest(db);
  }
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.destroy();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
