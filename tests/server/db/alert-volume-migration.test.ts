import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, migrateUpTo } from '#server/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

describe('migration 0014 (alert volume)', () => {
  let testDb: TestDatabase | undefined;
  afterAll(async () => testDb?.drop());

  it('gives searches without a distance limit their country’s default, and keeps chosen limits', async () => {
    testDb = await createTestDatabase({ isMigrated: false });
    const db = testDb.db;
    await migrateUpTo(db, '0012-answer-knowledge');
    await sql`
      insert into countries (country_code, locale_code, display_name)
      values ('US', 'en_US', 'United States'), ('GB', 'en_GB', 'United Kingdom'),
             ('CA', 'en_CA', 'Canada')`.execute(db);
    await sql`
      insert into stores (store_id, store_name, country_locale, city, address1)
      values ('R075', 'Union Square', 'en_US', 'San Francisco', '300 Post Street'),
             ('R092', 'Regent Street', 'en_GB', 'London', '235 Regent Street'),
             ('R121', 'Eaton Centre', 'en_CA', 'Toronto', '220 Yonge Street')`.execute(db);
    await sql`
      insert into product_types (product_id, product_name, family)
      values ('iphone18pro', 'iPhone 18 Pro', 'phone-modern')`.execute(db);
    const user = await sql<{ id: string }>`
      insert into users (issuer, subject) values ('https://idp.test/', 'migrated')
      returning id`.execute(db);
    const userId = user.rows[0]?.id ?? '';
    for (const [storeId, limit] of [
      ['R075', null],
      ['R092', null],
      ['R121', null],
      ['R075', 12],
    ] as const) {
      await sql`
        insert into searches (user_id, product_type, store_id, max_distance_miles)
        values (${userId}, 'iphone18pro', ${storeId}, ${limit})`.execute(db);
    }

    await migrateToLatest(db);

    const rows = await sql<{
      store_id: string;
      max_distance_miles: number;
      alert_cadence_minutes: number;
    }>`
      select store_id, max_distance_miles, alert_cadence_minutes from searches
       order by store_id, max_distance_miles`.execute(db);
    expect(
      rows.rows.map((row) => [row.store_id, Math.round(row.max_distance_miles * 100) / 100]),
    ).toEqual([
      ['R075', 12],
      ['R075', 30],
      ['R092', 30],
      // 50 km in miles.
      ['R121', 31.07],
    ]);
    expect(rows.rows.every((row) => row.alert_cadence_minutes === 15)).toBe(true);
    const zones = await sql<{ time_zone: string | null }>`select time_zone from users`.execute(db);
    expect(zones.rows).toEqual([{ time_zone: null }]);
  });
});
