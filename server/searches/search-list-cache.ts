import { LRUCache } from 'lru-cache';
import type { Search } from '#shared/api/searches.ts';
import { createBatchLoader } from '#server/db/batch-loader.ts';
import type { Executor } from '#server/db/database.ts';
import { listSearchListRowsByUsers } from '#server/db/repositories/search-cards-repository.ts';
import { watchSearchChanges } from '#server/db/repositories/searches-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import type { CachedValueSource } from '#server/catalog/catalog-cache.ts';
import type { CardCatalog } from '#server/catalog/card-catalog.ts';
import { composeListedSearch } from './search-cards.ts';

/**
 * Age after which a user's serialised search list is refreshed (see createSearchListCache;
 * it is served at most twice this old). Writes through this process (create, edit, delete,
 * the unsubscribe link) drop it at once; the bound is for what changes elsewhere: the
 * stores-with-inventory counts follow the watcher's snapshots, and another API process may
 * edit the searches. Seconds are invisible next to the watcher's one-minute checks, and a
 * busy user's list then costs one query per five seconds instead of one per request.
 */
export const SEARCH_LIST_MAX_AGE_MS = 5_000;
/** Users whose list is kept at most; beyond this the least recently read are dropped. */
const SEARCH_LIST_CACHE_SIZE = 1_000;

/** Users' search lists kept serialised in memory (see createSearchListCache). */
export type SearchListCache = {
  /**
   * The user's list as the route answers it: from memory while fresh, UTF-8 encoded; a list
   * not kept (a first read in a while) as the string serialised for this answer.
   */
  read: (user: UserRow, now?: number) => Promise<string | Buffer>;
  /** Stops following search changes (when the app closes). */
  close: () => void;
};

type CachedList = {
  body: Promise<Buffer>;
  searchIds: Set<string>;
  loadedAt: number;
  /** When a read starts a background refresh: between one and 1.5 times the maximum age. */
  refreshAt: number;
  isRefreshing: boolean;
};

/** Refreshes are spread over this share of the maximum age past it. */
const REFRESH_SPREAD = 0.5;

/**
 * Serialised search lists per user, loaded by `listSearchListRowsByUsers` (the lists asked for
 * in one turn of the event loop in one statement) and dropped when this process announces a
 * change of the user's searches. A list older than `maxAgeMs` (plus up to half again, drawn by
 * `random` per list) is refreshed in the background while readers keep the previous one, up to
 * twice that age, after which readers wait for a fresh load: so lists of busy users never
 * expire all at once under load, and lists loaded together (a restart, a burst of sign-ins)
 * drift apart instead of refreshing in one burst, which showed in the tail latency of
 * everyone's reads. Concurrent reads of a kept list share one load; the least recently read
 * lists go beyond `maxEntries`.
 *
 * A list is kept from its user's second read within `maxAgeMs` on; a first read in a while is
 * answered without keeping anything. Kept, a list read once (every list, when more users read
 * than the cache holds) only took memory: its encoded bytes count as V8 external memory, and
 * each 64 MB of that started a full collection. In the cold-cache bench those collections, a
 * 10 to 27 ms pause every 1.5 s for all 100 requests in flight, were the slowest 1 %.
 */
export function createSearchListCache(options: {
  db: Executor;
  serialize: (searches: Search[]) => string;
  maxAgeMs?: number;
  maxEntries?: number;
  random?: () => number;
  /** Where the cards' names and models come from (createCardCatalog). */
  catalog: CachedValueSource<CardCatalog>;
}): SearchListCache {
  const maxAgeMs = options.maxAgeMs ?? SEARCH_LIST_MAX_AGE_MS;
  const random = options.random ?? Math.random;
  const maxEntries = options.maxEntries ?? SEARCH_LIST_CACHE_SIZE;
  const lists = new LRUCache<string, CachedList>({ max: maxEntries });
  // When each user whose list is not kept last read it.
  const lastReads = new LRUCache<string, number>({ max: maxEntries });
  const stopWatching = watchSearchChanges((change) => {
    if ('userId' in change) {
      lists.delete(change.userId);
      return;
    }
    const dropped = [...lists.entries()].filter(([, list]) => list.searchIds.has(change.searchId));
    for (const [userId] of dropped) lists.delete(userId);
  });

  // Lists loaded together (more users than the cache holds) share one statement.
  const loadRows = createBatchLoader((userIds: readonly string[]) =>
    listSearchListRowsByUsers(options.db, userIds),
  );
  const loadSearches = async (userId: string): Promise<Search[]> => {
    const [rows, catalog] = await Promise.all([loadRows(userId), options.catalog.read()]);
    return rows.map((row) => composeListedSearch(row, catalog));
  };
  const load = (user: UserRow, now: number): CachedList => {
    const entry: CachedList = {
      body: loadSearches(user.id).then((searches) => {
        for (const search of searches) entry.searchIds.add(search.id);
        // Encoded once, here: every answer then writes the bytes as they are, and a list kept
        // lives outside the JavaScript heap, which the collector would otherwise copy about
        // (in the cold-cache bench, most of each collection's time).
        return Buffer.from(options.serialize(searches));
      }),
      searchIds: new Set(),
      loadedAt: now,
      refreshAt: now + maxAgeMs * (1 + REFRESH_SPREAD * random()),
      isRefreshing: false,
    };
    return entry;
  };
  const refreshInBackground = (user: UserRow, stale: CachedList, now: number): void => {
    stale.isRefreshing = true;
    const fresh = load(user, now);
    // A change announced meanwhile dropped `stale`: the refresh may predate it, so it is not kept.
    fresh.body.then(
      () => {
        if (lists.peek(user.id) === stale) lists.set(user.id, fresh);
      },
      () => {
        if (lists.peek(user.id) === stale) lists.delete(user.id);
      },
    );
  };

  return {
    read: async (user, now = Date.now()) => {
      const cached = lists.get(user.id);
      const age = cached === undefined ? Infinity : now - cached.loadedAt;
      if (cached !== undefined && age < 2 * maxAgeMs) {
        if (now >= cached.refreshAt && !cached.isRefreshing) {
          refreshInBackground(user, cached, now);
        }
        return await cached.body;
      }
      const lastRead = lastReads.get(user.id);
      lastReads.set(user.id, now);
      if (cached === undefined && (lastRead === undefined || now - lastRead >= maxAgeMs)) {
        return options.serialize(await loadSearches(user.id));
      }
      const entry = load(user, now);
      lists.set(user.id, entry);
      try {
        return await entry.body;
      } catch (error) {
        if (lists.peek(user.id) === entry) lists.delete(user.id);
        throw error;
      }
    },
    close: stopWatching,
  };
}
