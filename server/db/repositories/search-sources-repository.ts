import { sql } from 'kysely';
import type { Executor } from '#server/db/database.ts';
import type { SearchRow } from '#server/db/schema.ts';
import { searchModels, selectFromSearches, type SearchModel } from './search-cards-repository.ts';

// What a search's inventory and restock history are built from: the stores it covers, the
// state of the checks behind it, and what was seen there, each read in one statement.

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

/** Searches with their store's country. */
function selectSearchRows(db: Executor) {
  return selectFromSearches(db).selectAll('s').select('c.country_code as home_country_code');
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
