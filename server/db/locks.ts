import { sql } from 'kysely';
import type { Executor } from './database.ts';

// Every advisory lock of the product, and the one order writers take them in: the catalog's
// (shared by writers of stores and searches, exclusive for a change of the catalog's models),
// then each search's own (an edit or a deletion), then stores in sorted order, and search rows
// last (recounts). A transaction that follows this order cannot deadlock with another that
// does; server/db/repositories/search-inventory-repository.ts says which writer locks what.

/** What a store's advisory lock is named after (hashed to PostgreSQL's lock key). */
const STORE_LOCK_PREFIX = 'shelfwatch:store:';

/**
 * The catalog's models' advisory lock: held shared by every writer of stores (an answer, a
 * search's edit), exclusive by a change of the catalog's models. Writers of search_inventory
 * read the models; a catalog change finds the searches to refresh by the rows they show, and
 * cannot see those another transaction is writing, so the two must not overlap.
 */
const CATALOG_LOCK_KEY = 'shelfwatch:catalog';

/**
 * The class of searches' advisory locks (lockSearchesForChange): PostgreSQL keeps locks keyed
 * by two integers apart from those keyed by one, so a search's can never collide with a
 * store's or the catalog's.
 */
const SEARCH_LOCK_CLASS = 1;

/** Searches whose locks each transaction holds (lockSearchesForChange). */
const heldSearchLocks = new WeakMap<Executor, Set<string>>();

/**
 * Serialises changes of the same searches until the transaction ends, taken after the
 * catalog's lock (shared) and before any store's. An edit or a deletion reads which stores a
 * search covers and locks those: without this, a concurrent edit that moved the search
 * meanwhile would leave its new stores unlocked, and an answer applied there could file rows
 * for the search's settings of before this change. Call it first in the transaction.
 */
export async function lockSearchesForChange(
  trx: Executor,
  searchIds: readonly string[],
): Promise<void> {
  const held = heldSearchLocks.get(trx) ?? new Set<string>();
  const ids = [...new Set(searchIds)].filter((id) => !held.has(id)).sort();
  if (ids.length === 0) return;
  await sql`
    select count(case when sorted.is_catalog
      then pg_advisory_xact_lock_shared(hashtext(${CATALOG_LOCK_KEY}))
      else pg_advisory_xact_lock(${SEARCH_LOCK_CLASS}, hashtext(sorted.id)) end)
    from (
      select null::text as id, true as is_catalog
      union all
      select unnest(${ids}::text[]), false
      order by is_catalog desc, id
    ) as sorted`.execute(trx);
  if (trx.isTransaction) {
    for (const id of ids) held.add(id);
    heldSearchLocks.set(trx, held);
  }
}

/** Stores whose locks each transaction holds (lockStoresForUpdate). */
const heldStoreLocks = new WeakMap<Executor, Set<string>>();

/**
 * Serialises writers of the same stores until the transaction ends, so two answers listing
 * one store cannot both see the old status and record (and alert on) the same change twice.
 * A transaction's first call waits for its stores, taking them in sorted order after the
 * catalog's lock (shared), so that concurrent transactions cannot deadlock. A later call of
 * the same transaction (a search's edit refreshes it more than once) only takes stores that
 * are free at once: waiting then, while holding the first ones, is how a cycle of waits forms.
 * The stores it needs are the first call's unless a neighbour was recorded meanwhile.
 */
export async function lockStoresForUpdate(
  trx: Executor,
  storeIds: readonly string[],
): Promise<void> {
  const held = heldStoreLocks.get(trx) ?? new Set<string>();
  const wanted = [...new Set(storeIds)].filter((storeId) => !held.has(storeId)).sort();
  if (wanted.length === 0) {
    return;
  }
  if (!trx.isTransaction || held.size === 0) {
    const keys = wanted.map((storeId) => `${STORE_LOCK_PREFIX}${storeId}`);
    // One round trip; the sorted subquery fixes the order the locks are taken in, the
    // catalog's first. Outside a transaction they go with the statement: only an ordering
    // point for the caller.
    await sql`
      select count(case when sorted.is_catalog
        then pg_advisory_xact_lock_shared(hashtext(sorted.key))
        else pg_advisory_xact_lock(hashtext(sorted.key)) end)
      from (
        select ${CATALOG_LOCK_KEY}::text as key, true as is_catalog
        union all
        select unnest(${keys}::text[]), false
        order by is_catalog desc, key
      ) as sorted`.execute(trx);
    if (trx.isTransaction) heldStoreLocks.set(trx, new Set(wanted));
    return;
  }
  const taken = await sql<{ store_id: string; is_taken: boolean }>`
    select store_id, pg_try_advisory_xact_lock(hashtext(${STORE_LOCK_PREFIX} || store_id)) as is_taken
    from unnest(${wanted}::text[]) as wanted (store_id)`.execute(trx);
  for (const row of taken.rows) if (row.is_taken) held.add(row.store_id);
}

/**
 * Takes the catalog's lock exclusively until the transaction ends: a change of the catalog's
 * models waits for every writer of stores in flight, and they for it. Call it before any store
 * lock of the transaction (the order every writer follows: catalog, stores, search rows).
 */
export async function lockCatalogForChange(trx: Executor): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${CATALOG_LOCK_KEY}))`.execute(trx);
}
