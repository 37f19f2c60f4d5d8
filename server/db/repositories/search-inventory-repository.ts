import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../database.ts';
import { lockStoresForUpdate } from '../locks.ts';

// search_inventory holds, per search, the (covered store, shown model) pairs available now:
// what the inventory read lists, and what each search's `stores_with_inventory` counts (the
// my_searches card reads that column with the row). Every writer of what it is derived from
// keeps both current in the same transaction: snapshots (by the pairs whose availability
// flipped), neighbour distances (the searches of the stores whose neighbours changed), searches
// and their preferred models (by search) and the catalog's models (by product). Each refresh
// recomputes its slice from the tables, so repeating one is harmless.
//
// Locks, so that concurrent writers wait for each other instead of deadlocking. Recounting
// locks search rows. A search's own edit and a catalog change therefore lock the stores their
// searches can cover before anything else (lockCoverableStores), as the watch engine locks the
// stores of an answer first; those two recount at once. Ahead of every store lock comes the
// catalog's (lockStoresForUpdate, lockCatalogForChange): a catalog change of models waits for
// the writers in flight, whose rows it could not see to refresh, and they for it. The engine
// cannot know up front which searches an answer reaches, so its refreshes leave their recounts
// pending in the transaction, and it runs them as its last statement (recountChangedSearches):
// it never waits on anything while holding a search row.

/** Searches whose count a transaction changed rows of and has not recounted yet. */
const pendingRecounts = new WeakMap<Executor, Set<string>>();

/** A (store, part) pair whose availability changed. */
export type InventoryPair = { store_id: string; part_number: string };

/** Which searches to recompute. */
export type SearchSelection =
  | { searchIds: readonly string[] }
  /** Searches at these stores that include nearby results (their neighbours changed). */
  | { nearbyOfStoreIds: readonly string[] }
  /** Searches of these product types, or showing one of these parts (the catalog changed). */
  | { productIds: readonly string[]; partNumbers: readonly string[] };

/** Rows (search, store, part) the searches `s` show, filtered by `extraCondition` on `s`. */
function selectShownRows(extraCondition: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
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
    where (${extraCondition})
      and (not s.show_results_only_for_preferred_models
        or exists (
          select 1 from search_preferred_models sp
          where sp.search_id = s.id and sp.part_number = a.part_number
        ))`;
}

function describeSelection(selection: SearchSelection): RawBuilder<unknown> {
  if ('searchIds' in selection) {
    return sql`s.id = any(${[...selection.searchIds]}::uuid[])`;
  }
  if ('nearbyOfStoreIds' in selection) {
    return sql`s.include_nearby_store_results and s.store_id = any(${[...selection.nearbyOfStoreIds]}::text[])`;
  }
  return sql`(s.product_type = any(${[...selection.productIds]}::text[])
    or exists (
      select 1 from search_inventory si
      where si.search_id = s.id and si.part_number = any(${[...selection.partNumbers]}::text[])
    ))`;
}

function isEmptySelection(selection: SearchSelection): boolean {
  if ('searchIds' in selection) return selection.searchIds.length === 0;
  if ('nearbyOfStoreIds' in selection) return selection.nearbyOfStoreIds.length === 0;
  return selection.productIds.length === 0 && selection.partNumbers.length === 0;
}

/**
 * Recomputes what the selected searches show available. Outside the engine it first locks the
 * stores the searches can cover (as the engine does for the stores of an answer), so an answer
 * applied meanwhile cannot file rows from a search's settings of before an edit.
 */
export async function refreshSearchInventory(
  db: Executor,
  selection: SearchSelection,
): Promise<void> {
  if (isEmptySelection(selection)) return;
  // Resolved to ids first: a selection by the rows themselves (searches showing a part)
  // would no longer match once those rows are deleted.
  const searchIds =
    'searchIds' in selection
      ? [...selection.searchIds]
      : (
          await sql<{
            id: string;
          }>`select s.id from searches s where ${describeSelection(selection)}`.execute(db)
        ).rows.map((row) => row.id);
  if (searchIds.length === 0) return;
  const condition = describeSelection({ searchIds });
  // The watch engine's own refresh (neighbours it just learned) holds its answer's stores
  // already: it may not take more mid-transaction, and it recounts last.
  const isEngineRefresh = 'nearbyOfStoreIds' in selection;
  if (!isEngineRefresh) await lockCoverableStores(db, { searchIds });
  await sql`
    delete from search_inventory si using searches s
    where si.search_id = s.id and ${condition}`.execute(db);
  await sql`
    insert into search_inventory (search_id, store_id, part_number)
    ${selectShownRows(condition)}
    on conflict do nothing`.execute(db);
  await noteChangedSearches(db, searchIds, { isDeferred: isEngineRefresh });
}

/**
 * Locks (as lockStoresForUpdate does) every store the searches `searchIds`, or a search moved to
 * one of `storeIds`, could cover: their stores and all of those stores' neighbours, whatever the
 * searches' distance settings. Writers that change searches outside an answer call it before
 * touching them, so an answer being applied to any of those stores finishes first.
 */
export async function lockCoverableStores(
  db: Executor,
  query: { searchIds: readonly string[]; storeIds?: readonly string[] },
): Promise<void> {
  const storeIds = query.storeIds ?? [];
  if (query.searchIds.length === 0 && storeIds.length === 0) return;
  const coverable = await sql<{ store_id: string }>`
    with own (store_id) as (
      select s.store_id from searches s where s.id = any(${[...query.searchIds]}::uuid[])
      union
      select unnest(${[...storeIds]}::text[])
    )
    select store_id from own
    union
    select n.neighbour_store_id from store_neighbours n join own on own.store_id = n.store_id`.execute(
    db,
  );
  await lockStoresForUpdate(
    db,
    coverable.rows.map((row) => row.store_id),
  );
}

/**
 * Recounts `stores_with_inventory` of searches whose rows changed: at once outside a
 * transaction or unless `isDeferred`, else when the transaction calls recountChangedSearches.
 */
async function noteChangedSearches(
  db: Executor,
  searchIds: readonly string[],
  options: { isDeferred: boolean },
): Promise<void> {
  if (searchIds.length === 0) return;
  if (!db.isTransaction) {
    // The lock must last until the count is written: a transaction of its own.
    await db.transaction().execute((trx) => recountStoresWithInventory(trx, searchIds));
    return;
  }
  let pending = pendingRecounts.get(db);
  if (pending === undefined) {
    pending = new Set();
    pendingRecounts.set(db, pending);
  }
  for (const searchId of searchIds) pending.add(searchId);
  if (!options.isDeferred) await recountChangedSearches(db);
}

/**
 * Brings `stores_with_inventory` in line with search_inventory for every search this
 * transaction changed rows of and has not recounted yet. The watch engine calls it last;
 * readers of the column call it first, so a transaction reads its own changes.
 */
export async function recountChangedSearches(db: Executor): Promise<void> {
  const pending = pendingRecounts.get(db);
  if (pending === undefined || pending.size === 0) return;
  const searchIds = [...pending];
  pending.clear();
  await recountStoresWithInventory(db, searchIds);
}

/**
 * Writes each search's count of distinct stores in its search_inventory rows. The rows are
 * locked first, in one order (so recounts cannot deadlock), and counted in a statement of its
 * own: under READ COMMITTED an update that waited for a row would keep the count it computed
 * before the wait, without the rows the writer it waited for had just committed.
 */
async function recountStoresWithInventory(
  db: Executor,
  searchIds: readonly string[],
): Promise<void> {
  const ids = [...new Set(searchIds)];
  await sql`select 1 from searches where id = any(${ids}::uuid[]) order by id for no key update`.execute(
    db,
  );
  await sql`
    update searches s set stores_with_inventory = counted.stores
    from (
      select x.id, (
        select count(distinct si.store_id)::int from search_inventory si where si.search_id = x.id
      ) as stores
      from unnest(${ids}::uuid[]) as x (id)
    ) as counted
    where s.id = counted.id and s.stores_with_inventory <> counted.stores`.execute(db);
}

/**
 * Recomputes the rows of pairs whose availability changed: gone from every search when the
 * pair is no longer available, added to every search that covers its store and shows its
 * model when it is. Set-based from the pairs (hash joins for a bulk write, index lookups for
 * an answer's few flips): searches by their store, and nearby-including ones by their
 * store's neighbours, with the same coverage rules as selectShownRows.
 */
export async function refreshPairInventory(
  db: Executor,
  pairs: readonly InventoryPair[],
): Promise<void> {
  if (pairs.length === 0) return;
  const storeIds = pairs.map((pair) => pair.store_id);
  const partNumbers = pairs.map((pair) => pair.part_number);
  const changed = sql`select * from unnest(${storeIds}::text[], ${partNumbers}::text[]) as p (store_id, part_number)`;
  const deleted = await sql<{ search_id: string }>`
    delete from search_inventory si using (${changed}) as p
    where si.store_id = p.store_id and si.part_number = p.part_number
    returning si.search_id`.execute(db);
  const inserted = await sql<{ search_id: string }>`
    with available as (
      select a.store_id, a.part_number
      from (${changed}) as p
      join availability_snapshots a
        on a.store_id = p.store_id and a.part_number = p.part_number and a.status = 'available'
    ),
    covering as (
      select s.id as search_id, av.store_id, av.part_number
      from available av
      join searches s on s.store_id = av.store_id
      union
      select s.id, av.store_id, av.part_number
      from available av
      join store_neighbours n on n.neighbour_store_id = av.store_id
      join searches s
        on s.store_id = n.store_id
        and s.include_nearby_store_results
        and n.neighbour_store_id <> s.store_id
        and (s.max_distance_miles is null or n.distance_miles <= s.max_distance_miles)
    )
    insert into search_inventory (search_id, store_id, part_number)
    select cv.search_id, cv.store_id, cv.part_number
    from covering cv
    join searches s on s.id = cv.search_id
    join stores st on st.store_id = s.store_id
    join countries c on c.locale_code = st.country_locale
    join product_models m
      on m.country_code = c.country_code
      and m.part_number = cv.part_number
      and m.product_id = s.product_type
    where not s.show_results_only_for_preferred_models
      or exists (
        select 1 from search_preferred_models sp
        where sp.search_id = s.id and sp.part_number = cv.part_number
      )
    on conflict do nothing
    returning search_id`.execute(db);
  await noteChangedSearches(
    db,
    [...deleted.rows, ...inserted.rows].map((row) => row.search_id),
    { isDeferred: true },
  );
}
