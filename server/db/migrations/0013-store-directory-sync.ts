import { sql, type Kysely } from 'kysely';

/**
 * The store directory keeps itself current (issue 41). `stores.closed_on` (YYYY-MM-DD, text
 * like `retired_on`): the day a directory that answered for the store's country stopped
 * listing it; a closed store stays for the searches that watch it and is not offered for new
 * ones. `stores.is_learned`: the
 * store was filed from a pickup answer (watch/learned-stores.ts), not from the directory, so
 * its absence from the directory closes nothing. `store_directory_syncs`: the last directory
 * read per country, for the status page.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('stores')
    .addColumn('closed_on', 'text')
    .addColumn('is_learned', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // Only answers file stores without a slug: the directory always gives one.
  await sql`update stores set is_learned = true where store_slug is null`.execute(db);
  await db.schema
    .createTable('store_directory_syncs')
    .addColumn('country_code', 'text', (c) => c.primaryKey())
    .addColumn('locale_code', 'text', (c) => c.notNull())
    .addColumn('synced_at', 'timestamptz', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('listed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('added', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('closed', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('reopened', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('error', 'text')
    .addColumn('last_success_at', 'timestamptz')
    .execute();
}

/** Drops the table and the columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('store_directory_syncs').execute();
  await db.schema.alterTable('stores').dropColumn('is_learned').dropColumn('closed_on').execute();
}
