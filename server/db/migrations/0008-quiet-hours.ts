import { sql, type Kysely } from 'kysely';

/**
 * Quiet hours per account (issue 29): a wall-clock window in an IANA time zone during which
 * alerts wait and then go out as one summary, unless the holder wants preferred models at
 * their search's own store at once. Kept when switched off, so the form remembers them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('quiet_hours_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('quiet_hours_start', 'text', (c) => c.notNull().defaultTo('22:00'))
    .addColumn('quiet_hours_end', 'text', (c) => c.notNull().defaultTo('07:00'))
    .addColumn('quiet_hours_time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('quiet_hours_preferred_at_store', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`comment on column users.quiet_hours_preferred_at_store is 'alerts for preferred models at the search''s own store go out during quiet hours'`.execute(
    db,
  );
}

/** Drops the quiet-hours columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .dropColumn('quiet_hours_enabled')
    .dropColumn('quiet_hours_start')
    .dropColumn('quiet_hours_end')
    .dropColumn('quiet_hours_time_zone')
    .dropColumn('quiet_hours_preferred_at_store')
    .execute();
}
