import { sql, type Kysely } from 'kysely';

/**
 * What a search's card shows of its own state, kept on the search row by its writers
 * (issue 27), so the my_searches list reads each card with the row itself instead of two
 * correlated subqueries per search (a cold list read spent most of its time in them):
 * `stores_with_inventory`, the covered stores that have something the search shows available
 * (search_inventory, recounted by every writer of it), and `preferred_parts`, a sorted copy of
 * the search's rows in search_preferred_models (written by the same calls that write those).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('searches')
    .addColumn('stores_with_inventory', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('preferred_parts', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();
  // What the list's subqueries computed until now, for the searches already saved.
  await sql`
    update searches s set
      stores_with_inventory = (
        select count(distinct si.store_id)::int from search_inventory si where si.search_id = s.id
      ),
      preferred_parts = array(
        select sp.part_number from search_preferred_models sp
        where sp.search_id = s.id order by sp.part_number
      )`.execute(db);
}

/** Drops the two columns. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('searches')
    .dropColumn('preferred_parts')
    .dropColumn('stores_with_inventory')
    .execute();
}
