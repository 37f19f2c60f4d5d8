import { sql, type Insertable } from 'kysely';
import type { Executor } from '../database.ts';
import { runRetryingTransaction } from '../retrying-transaction.ts';
import { lockSearchesForChange } from '../locks.ts';
import type { SearchesTable, SearchRow, SearchUpdate } from '../schema.ts';
import {
  lockCoverableStores,
  recountChangedSearches,
  refreshSearchInventory,
} from './search-inventory-repository.ts';

/** Which searches changed: all of a user's, or one search whoever owns it. */
export type SearchChange = { userId: string } | { searchId: string };

type SearchChangeListener = (change: SearchChange) => void;

const searchChangeListeners = new Set<SearchChangeListener>();

/**
 * Calls `listener` for every change of searches this process announces, so copies kept in
 * memory can be dropped; returns the function that stops the calls.
 */
export function watchSearchChanges(listener: SearchChangeListener): () => void {
  searchChangeListeners.add(listener);
  return () => {
    searchChangeListeners.delete(listener);
  };
}

/**
 * Tells the watchers that searches changed. Writers call it once their change is committed,
 * so a reader reloading at once cannot see (and keep) the state from before it.
 */
export function announceSearchChange(change: SearchChange): void {
  for (const listener of searchChangeListeners) {
    listener(change);
  }
}

/** A search only if `userId` owns it: someone else's search is indistinguishable from none. */
export async function findOwnedSearch(
  db: Executor,
  userId: string,
  searchId: string,
): Promise<SearchRow | undefined> {
  return await db
    .selectFrom('searches')
    .selectAll()
    .where('id', '=', searchId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** How many searches a user has. */
export async function countSearchesByUser(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('searches')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Inserts a search (and what it shows available now). */
export async function insertSearch(
  db: Executor,
  values: Insertable<SearchesTable>,
): Promise<SearchRow> {
  const row = await db
    .insertInto('searches')
    .values(values)
    .returningAll()
    .executeTakeFirstOrThrow();
  await refreshSearchInventory(db, { searchIds: [row.id] });
  return row;
}

/** Updates an owned search (and what it shows available); undefined when it is not the user's. */
export async function updateOwnedSearch(
  db: Executor,
  userId: string,
  searchId: string,
  values: SearchUpdate,
): Promise<SearchRow | undefined> {
  // The search first, so that the stores read below are still its stores once locked; then
  // its stores before its row: an answer being applied there holds them and recounts this
  // row last, so it finishes first instead of waiting on this transaction.
  await lockSearchesForChange(db, [searchId]);
  await lockCoverableStores(db, {
    searchIds: [searchId],
    storeIds: values.store_id === undefined ? [] : [values.store_id],
  });
  const row = await db
    .updateTable('searches')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', searchId)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  if (row !== undefined) await refreshSearchInventory(db, { searchIds: [row.id] });
  return row;
}

/** Deletes an owned search; false when it is not the user's. */
export async function deleteOwnedSearch(
  db: Executor,
  userId: string,
  searchId: string,
): Promise<boolean> {
  const remove = async (trx: Executor): Promise<boolean> => {
    // The search, then its stores, as for an edit: its search_inventory rows go with it.
    await lockSearchesForChange(trx, [searchId]);
    await lockCoverableStores(trx, { searchIds: [searchId] });
    const result = await trx
      .deleteFrom('searches')
      .where('id', '=', searchId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  };
  return db.isTransaction ? await remove(db) : await runRetryingTransaction(db, remove);
}

/** Deletes every search of a user, inside the caller's transaction (account deletion). */
export async function deleteSearchesOfUser(trx: Executor, userId: string): Promise<void> {
  const searches = await trx
    .selectFrom('searches')
    .select('id')
    .where('user_id', '=', userId)
    .execute();
  // The searches, then their stores, as for one search: their search_inventory rows go with them.
  const searchIds = searches.map((search) => search.id);
  await lockSearchesForChange(trx, searchIds);
  await lockCoverableStores(trx, { searchIds });
  await trx.deleteFrom('searches').where('user_id', '=', userId).execute();
}

/** Replaces a search's preferred models (and what it shows available). */
export async function replacePreferredParts(
  db: Executor,
  searchId: string,
  partNumbers: readonly string[],
): Promise<void> {
  await db.deleteFrom('search_preferred_models').where('search_id', '=', searchId).execute();
  if (partNumbers.length > 0) {
    await db
      .insertInto('search_preferred_models')
      .values(partNumbers.map((part_number) => ({ search_id: searchId, part_number })))
      .execute();
  }
  // The refresh locks the search's stores first; the row is written after them.
  await refreshSearchInventory(db, { searchIds: [searchId] });
  await copyPreferredParts(db, [searchId]);
}

/** Copies searches' rows of search_preferred_models, sorted, to their `preferred_parts`. */
async function copyPreferredParts(db: Executor, searchIds: readonly string[]): Promise<void> {
  await sql`
    update searches s set preferred_parts = array(
      select sp.part_number from search_preferred_models sp
      where sp.search_id = s.id order by sp.part_number
    )
    where s.id = any(${[...searchIds]}::uuid[])`.execute(db);
}

/** Inserts many searches in one statement (seeding and benchmarks); returns the new rows. */
export async function insertSearches(
  db: Executor,
  rows: readonly Insertable<SearchesTable>[],
): Promise<SearchRow[]> {
  if (rows.length === 0) {
    return [];
  }
  const inserted = await db
    .insertInto('searches')
    .values([...rows])
    .returningAll()
    .execute();
  await refreshSearchInventory(db, { searchIds: inserted.map((row) => row.id) });
  return inserted;
}

/** Adds preferred models of many searches in one statement (seeding and benchmarks). */
export async function insertPreferredParts(
  db: Executor,
  rows: readonly { search_id: string; part_number: string }[],
): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  await db
    .insertInto('search_preferred_models')
    .values([...rows])
    .execute();
  const searchIds = [...new Set(rows.map((row) => row.search_id))];
  await refreshSearchInventory(db, { searchIds });
  await copyPreferredParts(db, searchIds);
}

/** A model of a search's product type sold in its store's country. */
export type SearchModel = { part_number: string; display_name: string };

/** A search with its store's country. */
export type SearchCountryRow = SearchRow & {
  /** Null when the store or its country is missing from the catalog. */
  home_country_code: string | null;
};

/** A search with its store's country and the models of its product there. */
export type SearchBaseRow = SearchCountryRow & {
  /** Models of the product type sold in the store's country, by display name. */
  models: SearchModel[];
};

/**
 * The columns of a search its card shows, and its owner (lists are grouped by user). Its
 * dates are left out (a cold list read parsed two per search for nothing); whether it is
 * paused is read as a boolean (isPausedColumn).
 */
const CARD_SEARCH_COLUMNS = [
  's.id',
  's.user_id',
  's.product_type',
  's.store_id',
  's.include_nearby_store_results',
  's.show_results_only_for_preferred_models',
  's.send_text_updates',
  's.send_email_updates',
  's.max_distance_miles',
  // Kept on the row by its writers (search-inventory-repository.ts).
  's.stores_with_inventory',
] as const;

/** A column of CARD_SEARCH_COLUMNS without its table alias. */
type CardSearchColumn = (typeof CARD_SEARCH_COLUMNS)[number] extends `s.${infer Column}`
  ? Column & keyof SearchRow
  : never;

/** Whether the search (`s`) is paused, without reading (and parsing) its date. */
const isPausedColumn = sql<boolean>`s.paused_at is not null`.as('is_paused');

/**
 * The search's (`s`) preferred parts (kept on the row by replacePreferredParts), as JSON:
 * node-postgres parses a text[] character by character in JavaScript, JSON natively, and in
 * the cold list load the arrays were a twelfth of everything the API allocated.
 */
const preferredPartsColumn = sql<string[]>`array_to_json(s.preferred_parts)`.as('preferred_parts');

/**
 * A search's own columns that its card shows: what a list reads, the catalog's names and the
 * models coming from memory (card-catalog.ts).
 */
export type SearchListRow = Pick<SearchRow, CardSearchColumn> & {
  is_paused: boolean;
  preferred_parts: string[];
};

/** A search with what its card shows but its models. */
export type SearchCardHeadRow = SearchListRow & {
  home_country_code: string | null;
  product_name: string | null;
  store_name: string | null;
  store_city: string | null;
  store_state: string | null;
};

/** A search with what its card shows, read in one statement. */
export type SearchCardRow = SearchCardHeadRow & { models: SearchModel[] };

/**
 * Stores a search (`s`) covers, as rows (store_id, distance_miles, rank): its own (distance 0,
 * rank 0), then, with nearby results on, the neighbours within its distance limit (rank 1).
 * Correlated to `s`, so one statement serves any number of searches.
 */
const coveredStores = sql`
  select s.store_id, 0::float8 as distance_miles, 0 as rank
  union all
  select n.neighbour_store_id, n.distance_miles, 1
  from store_neighbours n
  where s.include_nearby_store_results
    and n.store_id = s.store_id
    and n.neighbour_store_id <> s.store_id
    and (s.max_distance_miles is null or n.distance_miles <= s.max_distance_miles)`;

/** Ids of the stores a search (`s`) covers. */
const coveredStoreIds = sql`select covered.store_id from (${coveredStores}) as covered`;

/** Part numbers of the search's (`s`) product type in its store's country (`c`). */
const searchedPartNumbers = sql`
  select m.part_number from product_models m
  where m.product_id = s.product_type and m.country_code = c.country_code`;

/** The models of a search's (`s`) product type in its store's country (`c`), as a JSON list. */
const searchModels = sql<SearchModel[]>`coalesce((
  select json_agg(json_build_object('part_number', m.part_number, 'display_name', m.display_name)
    order by m.display_name, m.part_number)
  from product_models m
  where m.product_id = s.product_type and m.country_code = c.country_code
), '[]'::json)`;

/** Searches (`s`) joined to their store (`st`) and its country (`c`). */
function selectFromSearches(db: Executor) {
  return db
    .selectFrom('searches as s')
    .leftJoin('stores as st', 'st.store_id', 's.store_id')
    .leftJoin('countries as c', 'c.locale_code', 'st.country_locale');
}

/** Searches with their store's country. */
function selectSearchRows(db: Executor) {
  return selectFromSearches(db).selectAll('s').select('c.country_code as home_country_code');
}

/** What a search's card shows but its models: product and store names, stores with inventory. */
function selectSearchCardHeads(db: Executor) {
  return selectFromSearches(db)
    .select(CARD_SEARCH_COLUMNS)
    .select([isPausedColumn, preferredPartsColumn])
    .select('c.country_code as home_country_code')
    .leftJoin('product_types as p', 'p.product_id', 's.product_type')
    .select([
      'p.product_name',
      'st.store_name',
      'st.city as store_city',
      'st.state_code as store_state',
    ]);
}

/** Cards with their models. */
function selectSearchCards(db: Executor) {
  return selectSearchCardHeads(db).select(searchModels.as('models'));
}

/**
 * Several users' searches as list rows, in one statement of the searches table alone (one text
 * whatever their number, so it stays prepared): per user id asked, oldest first; an empty
 * list for a user without any. Names and models come from memory (card-catalog.ts).
 */
export async function listSearchListRowsByUsers(
  db: Executor,
  userIds: readonly string[],
): Promise<SearchListRow[][]> {
  if (userIds.length === 0) return [];
  await recountChangedSearches(db);
  const rows = await db
    .selectFrom('searches as s')
    .select(CARD_SEARCH_COLUMNS)
    .select([isPausedColumn, preferredPartsColumn])
    .where(sql<boolean>`s.user_id = any(${[...userIds]}::uuid[])`)
    .orderBy('s.created_at')
    .orderBy('s.id')
    .execute();
  const byUser = new Map<string, SearchListRow[]>(userIds.map((id) => [id, []]));
  for (const row of rows) byUser.get(row.user_id)?.push(row);
  return userIds.map((id) => byUser.get(id) ?? []);
}

/** One of a user's searches as a card; someone else's is undefined. */
export async function findOwnedSearchCard(
  db: Executor,
  userId: string,
  searchId: string,
): Promise<SearchCardRow | undefined> {
  await recountChangedSearches(db);
  return await selectSearchCards(db)
    .where('s.id', '=', searchId)
    .where('s.user_id', '=', userId)
    .executeTakeFirst();
}

/** A store a search covers, with what its inventory row shows. */
export type CoveredStore = {
  store_id: string;
  store_name: string;
  city: string;
  state_code: string | null;
  /** 0 at the search's own store. */
  distance_miles: number;
};

/** How the checks behind a search stand: its poll target and the upstream hosts. */
export type CheckStateColumns = {
  /** Null before the watcher planned a check of the search's store and product. */
  target_last_requested_at: Date | null;
  target_last_covered_at: Date | null;
  target_consecutive_failures: number | null;
  is_cooling_down: boolean;
  /** First failed upstream request since the target was last covered; only read when stale. */
  first_failure_at: Date | null;
};

/** What a search's inventory is built from, read in one statement. */
export type SearchInventorySources = SearchCountryRow &
  CheckStateColumns & {
    /** The search's store first, then the neighbours within its limit, nearest first. */
    covered_stores: CoveredStore[];
    /** Models available now at the covered stores that the search shows (search_inventory). */
    available: { store_id: string; part_number: string }[];
    /** Latest check of any of the product's models at the search's own store. */
    home_last_checked_at: Date | null;
  };

/** What a search's restock history is built from, read in one statement. */
export type SearchHistorySources = SearchBaseRow &
  CheckStateColumns & {
    covered_stores: CoveredStore[];
    /** Newest first; `observed_at_ms` in epoch milliseconds. */
    events: {
      id: string;
      store_id: string;
      part_number: string;
      from_status: string | null;
      to_status: string;
      pickup_quote: string | null;
      observed_at_ms: number;
    }[];
    /** Restocks (changes to available) per UTC day, `YYYY-MM-DD`. */
    daily_restocks: { day: string; restocks: number }[];
  };

/**
 * When the check state is read: `now`, and `lateBefore`, the coverage time before which the
 * caller counts the checks as late (the first failure is only looked up when they may be).
 */
export type CheckStateQuery = { userId: string; searchId: string; now: Date; lateBefore: Date };

/** Adds the covered stores and the check state of searches (`s`) at their store (`st`, `c`). */
function selectCoverageAndChecks(db: Executor, clock: Pick<CheckStateQuery, 'now' | 'lateBefore'>) {
  const { now, lateBefore } = clock;
  return selectSearchRows(db)
    .leftJoin('poll_targets as t', (join) =>
      join
        .onRef('t.country_code', '=', 'c.country_code')
        .onRef('t.product_id', '=', 's.product_type')
        .onRef('t.store_id', '=', 's.store_id'),
    )
    .select([
      't.last_requested_at as target_last_requested_at',
      't.last_covered_at as target_last_covered_at',
      't.consecutive_failures as target_consecutive_failures',
    ])
    .select([
      sql<CoveredStore[]>`(
        select coalesce(json_agg(json_build_object(
          'store_id', cs.store_id,
          'store_name', cs.store_name,
          'city', cs.city,
          'state_code', cs.state_code,
          'distance_miles', covered.distance_miles
        ) order by covered.rank, covered.distance_miles, cs.store_id), '[]')
        from (${coveredStores}) as covered
        join stores cs on cs.store_id = covered.store_id
        where c.country_code is not null
      )`.as('covered_stores'),
      // Milliseconds compared, as the JavaScript clock keeps no finer time.
      sql<boolean>`exists (select 1 from upstream_hosts h where date_trunc('milliseconds', h.cool_down_until) > ${now})`.as(
        'is_cooling_down',
      ),
      // Only looked for when the checks may be stale: the request log has no index for it.
      sql<Date | null>`case
        when t.consecutive_failures > 0
          or t.last_covered_at is null
          or t.last_covered_at <= ${lateBefore}
          or exists (select 1 from upstream_hosts h where h.cool_down_until > ${now})
        then (
          select min(r.requested_at) from upstream_requests r
          where not r.is_success
            and (t.last_covered_at is null
              or r.requested_at > date_trunc('milliseconds', t.last_covered_at))
        )
      end`.as('first_failure_at'),
    ]);
}

/**
 * Everything the inventories of (user, search) pairs show, at one clock reading, in one
 * statement (one text whatever their number, so it stays prepared); in the order asked,
 * undefined for a search that is not that user's.
 */
export async function findManySearchInventorySources(
  db: Executor,
  query: Pick<CheckStateQuery, 'now' | 'lateBefore'> & {
    searches: readonly { userId: string; searchId: string }[];
  },
): Promise<(SearchInventorySources | undefined)[]> {
  if (query.searches.length === 0) return [];
  const searchIds = query.searches.map((search) => search.searchId);
  const userIds = query.searches.map((search) => search.userId);
  const rows = await selectInventorySources(db, query)
    .where(
      sql<boolean>`(s.id, s.user_id) in (select * from unnest(${searchIds}::uuid[], ${userIds}::uuid[]))`,
    )
    .execute();
  const byPair = new Map(rows.map((row) => [`${row.user_id}|${row.id}`, row]));
  return query.searches.map((search) => byPair.get(`${search.userId}|${search.searchId}`));
}

/** What an inventory answer is built from, for the searches the caller picks. */
function selectInventorySources(db: Executor, clock: Pick<CheckStateQuery, 'now' | 'lateBefore'>) {
  return selectCoverageAndChecks(db, clock).select([
    sql<{ store_id: string; part_number: string }[]>`(
        select coalesce(json_agg(json_build_object(
          'store_id', si.store_id,
          'part_number', si.part_number
        )), '[]')
        from search_inventory si
        where si.search_id = s.id
      )`.as('available'),
    sql<Date | null>`(
        select max(a.observed_at) from availability_snapshots a
        where a.store_id = s.store_id and a.part_number in (${searchedPartNumbers})
      )`.as('home_last_checked_at'),
  ]);
}

/** Everything a search's restock history shows since `since`, for one of the user's searches. */
export async function findSearchHistorySources(
  db: Executor,
  query: CheckStateQuery & { since: Date; eventLimit: number },
): Promise<SearchHistorySources | undefined> {
  return await selectCoverageAndChecks(db, query)
    .where('s.id', '=', query.searchId)
    .where('s.user_id', '=', query.userId)
    .select(searchModels.as('models'))
    .select([
      // Times as epoch milliseconds: JSON would write PostgreSQL's microseconds and offset.
      sql<SearchHistorySources['events']>`(
        select coalesce(json_agg(json_build_object(
          'id', e.id::text,
          'store_id', e.store_id,
          'part_number', e.part_number,
          'from_status', e.from_status,
          'to_status', e.to_status,
          'pickup_quote', e.pickup_quote,
          'observed_at_ms', floor(extract(epoch from e.observed_at) * 1000)
        ) order by e.observed_at desc, e.id desc), '[]')
        from (
          select * from availability_events e
          where e.store_id in (${coveredStoreIds})
            and e.part_number in (${searchedPartNumbers})
            and e.observed_at >= ${query.since}
          order by e.observed_at desc, e.id desc
          limit ${query.eventLimit}
        ) as e
      )`.as('events'),
      sql<SearchHistorySources['daily_restocks']>`(
        select coalesce(json_agg(json_build_object('day', d.day, 'restocks', d.restocks)), '[]')
        from (
          select to_char(e.observed_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as restocks
          from availability_events e
          where e.store_id in (${coveredStoreIds})
            and e.part_number in (${searchedPartNumbers})
            and e.to_status = 'available'
            and e.observed_at >= ${query.since}
          group by 1
        ) as d
      )`.as('daily_restocks'),
    ])
    .executeTakeFirst();
}
