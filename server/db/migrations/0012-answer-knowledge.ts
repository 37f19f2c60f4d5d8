import type { Kysely } from 'kysely';

/**
 * What Apple's answers teach beyond stock (issue 40). `upstream_retired_parts`: a part
 * answered `ineligible` at every listed store, counted per answer in a row, and retired in its
 * country (`retired_at`) after two; it holds for the catalog model it was found for (product
 * type and name), so a catalog change gives the part another chance. `stores.time_zone`: the
 * IANA zone an answer's `retailStore` gives a store the catalog lacked when it was filed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upstream_retired_parts')
    .addColumn('country_code', 'text', (c) => c.notNull())
    .addColumn('part_number', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('ineligible_answers', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_answer_at', 'timestamptz', (c) => c.notNull())
    .addColumn('retired_at', 'timestamptz')
    .addPrimaryKeyConstraint('upstream_retired_parts_pkey', ['country_code', 'part_number'])
    .execute();
  await db.schema.alterTable('stores').addColumn('time_zone', 'text').execute();
}

/** Drops the table and the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('stores').dropColumn('time_zone').execute();
  await db.schema.dropTable('upstream_retired_parts').execute();
}
