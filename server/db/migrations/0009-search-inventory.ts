import { sql, type Kysely } from 'kysely';

/**
 * What each search shows available now, kept up to date by its writers (issue 27): one row
 * per (search, covered store, shown model) with a snapshot `available`. The my_searches list
 * counts a search's stores with inventory from it and a search's inventory read lists it, so
 * both are index lookups instead of correlated subqueries over covered stores and snapshots.
 * Indexes for the writers: searches by store (a pair that changes at a store reaches the
 * searches there), neighbours by neighbour (and those nearby), rows by pair (a pair that is
 * no longer available goes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_inventory')
    .addColumn('search_id', 'uuid', (c) =>
      c.notNull().references('searches.id').onDelete('cascade'),
    )
    .addColumn('store_id', 'text', (c) => c.notNull())
    .addColumn('part_number', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_inventory_pkey', ['search_id', 'store_id', 'part_number'])
    .execute();
  await db.schema
    .createIndex('search_inventory_pair')
    .on('search_inventory')
    .columns(['store_id', 'part_number'])
    .execute();
  await db.schema.createIndex('searches_store').on('searches').column('store_id').execute();
  await db.schema
    .createIndex('store_neighbours_neighbour')
    .on('store_neighbours')
    .columns(['neighbour_store_id', 'store_id'])
    .execute();
  // What the list's correlated subquery computed until now, for the searches already saved.
  await sql`
    insert into search_inventory (search_id, store_id, part_number)
    select s.id, a.store_id, a.part_number
    from searches s
    join stores st on st.store_id = s.store_id
    join countries c on c.locale_code = st.country_locale
    cross join lateral (
      select s.store_id
      union all
      select n.neighbour_store_id from store_neighbours n
      where s.include_nearby_store_results
        and n.store_id = s.store_id
        and n.neighbour_store_id <> s.store_id
        and (s.max_distance_miles is null or n.distance_miles <= s.max_distance_miles)
    ) as covered (store_id)
    join availability_snapshots a on a.store_id = covered.store_id and a.status = 'available'
    join product_models m
      on m.country_code = c.country_code
      and m.part_number = a.part_number
      and m.product_id = s.product_type
    where not s.show_results_only_for_preferred_models
      or exists (
        select 1 from search_preferred_models sp
        where sp.search_id = s.id and sp.part_number = a.part_number
      )
    on conflict do nothing`.execute(db);
}

/** Drops the table and its writers' indexes. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('store_neighbours_neighbour').execute();
  await db.schema.dropIndex('searches_store').execute();
  await db.schema.dropTable('search_inventory').execute();
}
