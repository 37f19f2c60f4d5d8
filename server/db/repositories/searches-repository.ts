import type { Insertable } from 'kysely';
import type { Executor } from '../database.ts';
import type { SearchesTable, SearchRow, SearchUpdate } from '../schema.ts';

/** A user's searches, oldest first so cards keep their place. */
export async function listSearchesByUser(db: Executor, userId: string): Promise<SearchRow[]> {
  return await db
    .selectFrom('searches')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
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

/** Inserts a search. */
export async function insertSearch(
  db: Executor,
  values: Insertable<SearchesTable>,
): Promise<SearchRow> {
  return await db.insertInto('searches').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Updates an owned search; undefined when it is not the user's. */
export async function updateOwnedSearch(
  db: Executor,
  userId: string,
  searchId: string,
  values: SearchUpdate,
): Promise<SearchRow | undefined> {
  return await db
    .updateTable('searches')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', searchId)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes an owned search; false when it is not the user's. */
export async function deleteOwnedSearch(
  db: Executor,
  userId: string,
  searchId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('searches')
    .where('id', '=', searchId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Preferred part numbers of several searches, keyed by search id. */
export async function listPreferredParts(
  db: Executor,
  searchIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const bySearch = new Map<string, Set<string>>(searchIds.map((id) => [id, new Set<string>()]));
  if (searchIds.length === 0) {
    return bySearch;
  }
  const rows = await db
    .selectFrom('search_preferred_models')
    .selectAll()
    .where('search_id', 'in', searchIds)
    .execute();
  for (const row of rows) {
    bySearch.get(row.search_id)?.add(row.part_number);
  }
  return bySearch;
}

/** Replaces a search's preferred models. */
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
}
