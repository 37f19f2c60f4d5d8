import { sql, type Insertable } from 'kysely';
import type { Executor } from '#server/db/database.ts';
import { lockSearchesForChange } from '#server/db/locks.ts';
import { runRetryingTransaction } from '#server/db/retrying-transaction.ts';
import type { SearchesTable, SearchRow, SearchUpdate } from '#server/db/schema.ts';
import { lockCoverableStores, refreshSearchInventory } from './search-inventory-repository.ts';

// A search's own rows (searches, search_preferred_models): their writes keep search_inventory
// current, and callers announce them (announceSearchChange) once committed.

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
