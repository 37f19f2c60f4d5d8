import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '#server/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

describe('migrations', () => {
  let testDb: TestDatabase | undefined;
  afterAll(async () => testDb?.drop());

  it('builds every table from an empty database and is a no-op the second time', async () => {
    testDb = await createTestDatabase({ isMigrated: false });
    const applied = await migrateToLatest(testDb.db);
    expect(applied).toContain('0001-initial');
    const tables = await sql<{ tablename: string }>`
      SELECT tablename FROM pg_tables WHERE schemaname = 'public'`.execute(testDb.db);
    const names = tables.rows.map((row) => row.tablename);
    for (const table of [
      'users',
      'idp_accounts',
      'idp_payloads',
      'countries',
      'stores',
      'product_types',
      'product_models',
      'searches',
      'search_preferred_models',
      'availability_snapshots',
    ]) {
      expect(names).toContain(table);
    }
    expect(await migrateToLatest(testDb.db)).toEqual([]);
  });
});
