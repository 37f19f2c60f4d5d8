import { sql, type Kysely } from 'kysely';

/**
 * Product types and models as versioned data: launch and retirement dates, each part's source,
 * the buy page a type is read from, and a log of every catalog change (the bundled file's
 * seed, `catalog import-models`, `catalog sync-models`) for the status page and for knowing
 * whether this release's bundled file was already applied.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('product_types')
    .addColumn('launched_on', 'text')
    .addColumn('retired_on', 'text')
    .addColumn('buy_page', 'text')
    .execute();
  await db.schema
    .alterTable('product_models')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('retired_on', 'text')
    .execute();
  await db.schema
    .createTable('catalog_changes')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('seed', 'import', 'sync')`))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text')
    .addColumn('is_ok', 'boolean', (c) => c.notNull())
    .addColumn('summary', 'jsonb', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('catalog_changes_kind_time')
    .on('catalog_changes')
    .columns(['kind', 'created_at'])
    .execute();
}

/** Drops the log and the lifecycle columns (retired models become ordinary ones again). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('catalog_changes').execute();
  await db.schema
    .alterTable('product_models')
    .dropColumn('source')
    .dropColumn('retired_on')
    .execute();
  await db.schema
    .alterTable('product_types')
    .dropColumn('launched_on')
    .dropColumn('retired_on')
    .dropColumn('buy_page')
    .execute();
}
