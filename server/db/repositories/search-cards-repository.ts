import { sql } from 'kysely';
import type { Executor } from '#server/db/database.ts';
import type { SearchRow } from '#server/db/schema.ts';
import { closedStoreName } from './catalog-repository.ts';
import { recountChangedSearches } from './search-inventory-repository.ts';

// What a search's card shows: the list of a user's searches and one search by id.

/** A model of a search's product type sold in its store's country. */
export type SearchModel = { part_number: string; display_name: string };

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
  's.alert_cadence_minutes',
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

/** The models of a search's (`s`) product type in its store's country (`c`), as a JSON list. */
export const searchModels = sql<SearchModel[]>`coalesce((
  select json_agg(json_build_object('part_number', m.part_number, 'display_name', m.display_name)
    order by m.display_name, m.part_number)
  from product_models m
  where m.product_id = s.product_type and m.country_code = c.country_code
), '[]'::json)`;

/** Searches (`s`) joined to their store (`st`) and its country (`c`). */
export function selectFromSearches(db: Executor) {
  return db
    .selectFrom('searches as s')
    .leftJoin('stores as st', 'st.store_id', 's.store_id')
    .leftJoin('countries as c', 'c.locale_code', 'st.country_locale');
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
      closedStoreName.as('store_name'),
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
