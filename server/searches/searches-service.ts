import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { ERROR_CODES } from '#shared/api/errors.ts';
import type { NewSearch, Search, SearchUpdate } from '#shared/api/searches.ts';
import { getPlan, isPaidPlan, PLANS, type Plan } from '#shared/domain/plans.ts';
import { createBatchLoader } from '#server/db/batch-loader.ts';
import type { Executor } from '#server/db/database.ts';
import { runRetryingTransaction } from '#server/db/retrying-transaction.ts';
import { lockSearchesForChange } from '#server/db/locks.ts';
import { listProductTypeCountries } from '#server/db/repositories/catalog-changes-repository.ts';
import {
  findCountry,
  findProductType,
  findStoreWithCountry,
  listProductModels,
} from '#server/db/repositories/catalog-repository.ts';
import {
  announceSearchChange,
  countSearchesByUser,
  deleteOwnedSearch,
  findOwnedSearch,
  findOwnedSearchCard,
  insertSearch,
  listSearchListRowsByUsers,
  replacePreferredParts,
  updateOwnedSearch,
  watchSearchChanges,
  type SearchCardRow,
  type SearchListRow,
  type SearchModel,
} from '#server/db/repositories/searches-repository.ts';
import { findUserById } from '#server/db/repositories/users-repository.ts';
import type { Database, SearchRow, UserRow } from '#server/db/schema.ts';
import { reconcilePausedSearches } from '#server/accounts/plan-change.ts';
import { AppError, invalidInput, notFound } from '#server/base/app-error.ts';
import type { CachedValueSource } from '#server/catalog/catalog-cache.ts';
import type { CardCatalog, CardPlace } from '#server/catalog/card-catalog.ts';

/** "Better or Premium": the plans that include searches on the website. */
function listPaidPlanTitles(): string {
  const titles = PLANS.filter((plan) => isPaidPlan(plan.code)).map((plan) => plan.title);
  return titles.length < 2
    ? titles.join('')
    : `${titles.slice(0, -1).join(', ')} or ${titles.at(-1) ?? ''}`;
}

/**
 * Web access to searches is for paid plans (spec section 6). Every search read and write
 * checks this first, before the search is even looked up, so a Good-plan account gets the
 * same 403 for its own searches, someone else's and ones that do not exist.
 */
export function requireSearchAccess(user: UserRow): void {
  if (!isPaidPlan(user.plan)) {
    throw new AppError(
      403,
      ERROR_CODES.subscriptionRequired,
      `The ${getPlan(user.plan).title} plan has no searches on the web`,
      {
        reason: `Searches on the website need a ${listPaidPlanTitles()} plan. Upgrade on the Pricing page, or use the free search in the Shelfwatch app for Mac.`,
      },
    );
  }
}

/** The sentence of a refused create: the plan, its limit and the plans that allow more. */
function describeSearchLimit(plan: Plan): string {
  const allowance = `Your ${plan.title} plan allows ${plan.searches} search${plan.searches === 1 ? '' : 'es'}.`;
  const larger = PLANS.filter((candidate) => candidate.searches > plan.searches).map(
    (candidate) => candidate.title,
  );
  return larger.length === 0
    ? `${allowance} Delete a search you no longer need to add another.`
    : `${allowance} Upgrade to ${larger.join(' or ')} to add more, or delete a search you no longer need.`;
}

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

/** One of the user's searches, in one statement; anyone else's is a 404. */
export async function getUserSearch(
  db: Executor,
  user: UserRow,
  searchId: string,
): Promise<Search> {
  return composeCardSearch(await requireSearchCard(db, user.id, searchId));
}

async function requireSearchCard(
  db: Executor,
  userId: string,
  searchId: string,
): Promise<SearchCardRow> {
  const card = await findOwnedSearchCard(db, userId, searchId);
  if (card === undefined) {
    throw notFound('Search');
  }
  return card;
}

/** The user's search row or a 404. */
export async function requireOwnedSearch(
  db: Executor,
  user: UserRow,
  searchId: string,
): Promise<SearchRow> {
  const row = await findOwnedSearch(db, user.id, searchId);
  if (row === undefined) {
    throw notFound('Search');
  }
  return row;
}

/**
 * Creates a search within the plan's limit. The user row is locked for the count so two
 * concurrent creates cannot both pass the limit.
 */
export async function createUserSearch(
  db: Kysely<Database>,
  user: UserRow,
  input: NewSearch & { product_type: string; store_id: string },
): Promise<Search> {
  const search = await runRetryingTransaction(db, async (trx) => {
    const locked = await findUserById(trx, user.id, { isLocked: true });
    if (locked === undefined) {
      throw notFound('Account');
    }
    const plan = getPlan(locked.plan);
    const count = await countSearchesByUser(trx, locked.id);
    if (count >= plan.searches) {
      throw new AppError(
        403,
        ERROR_CODES.searchLimitReached,
        `${count} of ${plan.searches} searches of the ${plan.title} plan in use`,
        { reason: describeSearchLimit(plan) },
      );
    }
    const { countryCode } = await requireCatalogEntries(trx, input.product_type, input.store_id, {
      isNewChoice: true,
    });
    const parts = await resolvePreferredParts(
      trx,
      input.product_type,
      countryCode,
      input.product_models ?? [],
      false,
    );
    const row = await insertSearch(trx, {
      user_id: locked.id,
      product_type: input.product_type,
      store_id: input.store_id,
      include_nearby_store_results: input.include_nearby_store_results ?? true,
      show_results_only_for_preferred_models: input.show_results_only_for_preferred_models ?? false,
      send_text_updates:
        (input.send_text_updates ?? false) && getPlan(locked.plan).features.textNotifications,
      send_email_updates: input.send_email_updates ?? true,
      max_distance_miles: input.max_distance_miles ?? null,
    });
    await replacePreferredParts(trx, row.id, parts);
    return composeCardSearch(await requireSearchCard(trx, locked.id, row.id));
  });
  announceSearchChange({ userId: user.id });
  return search;
}

/** Replaces a search's settings. */
export async function updateUserSearch(
  db: Kysely<Database>,
  user: UserRow,
  searchId: string,
  input: SearchUpdate & { product_type: string; store_id: string },
): Promise<Search> {
  const search = await runRetryingTransaction(db, async (trx) => {
    // Another edit of this search in flight finishes first, so `existing` is what this one changes.
    await lockSearchesForChange(trx, [searchId]);
    const existing = await requireOwnedSearch(trx, user, searchId);
    // After a product or store change the client may still send the old models: drop them
    // rather than refuse, since the old choice cannot apply to the new product.
    const isCatalogChange =
      existing.product_type !== input.product_type || existing.store_id !== input.store_id;
    // A search of a type since retired in its country keeps working and stays editable; only
    // moving a search onto such a type or store is refused.
    const { countryCode } = await requireCatalogEntries(trx, input.product_type, input.store_id, {
      isNewChoice: isCatalogChange,
    });
    const parts = await resolvePreferredParts(
      trx,
      input.product_type,
      countryCode,
      input.product_models,
      isCatalogChange,
    );
    if (input.send_text_updates && !getPlan(user.plan).features.textNotifications) {
      throw new AppError(
        403,
        ERROR_CODES.subscriptionRequired,
        `send_text_updates: not included in the ${getPlan(user.plan).title} plan`,
        {
          reason: 'Text notifications are only allowed for Premium subscribers.',
          field: 'send_text_updates',
        },
      );
    }
    const row = await updateOwnedSearch(trx, user.id, searchId, {
      product_type: input.product_type,
      store_id: input.store_id,
      include_nearby_store_results: input.include_nearby_store_results,
      show_results_only_for_preferred_models: input.show_results_only_for_preferred_models,
      send_text_updates: input.send_text_updates,
      send_email_updates: input.send_email_updates,
      max_distance_miles:
        input.max_distance_miles === undefined
          ? existing.max_distance_miles
          : input.max_distance_miles,
    });
    if (row === undefined) {
      throw notFound('Search');
    }
    await replacePreferredParts(trx, row.id, parts);
    return composeCardSearch(await requireSearchCard(trx, user.id, row.id));
  });
  announceSearchChange({ userId: user.id });
  return search;
}

/** Deletes one of the user's searches. */
export async function deleteUserSearch(
  db: Executor,
  user: UserRow,
  searchId: string,
): Promise<void> {
  if (!(await deleteOwnedSearch(db, user.id, searchId))) {
    throw notFound('Search');
  }
  // A freed place resumes the oldest paused search; the plan is read afresh, not from the cache.
  const current = await findUserById(db, user.id);
  if (current !== undefined) {
    await reconcilePausedSearches(db, user.id, getPlan(current.plan).searches);
  }
  announceSearchChange({ userId: user.id });
}

async function requireCatalogEntries(
  db: Executor,
  productType: string,
  storeId: string,
  options: { isNewChoice: boolean },
): Promise<{ countryCode: string }> {
  const [product, store] = await Promise.all([
    findProductType(db, productType),
    findStoreWithCountry(db, storeId),
  ]);
  if (product === undefined) {
    throw invalidInput('product_type', `unknown product type "${productType}"`);
  }
  if (store === undefined) {
    throw invalidInput('store_id', `unknown store "${storeId}"`);
  }
  if (options.isNewChoice) {
    // A type on sale elsewhere is refused where it is not: retired in that country, or never
    // sold there (no models to watch). A type sold nowhere any more is still accepted, as it
    // was before retirement was per country: the demo account and older clients make such
    // searches, whose pages then say "no longer sold"; the pickers never offer one.
    const soldIn = await listProductTypeCountries(db, productType);
    if (soldIn.length > 0 && !soldIn.includes(store.country_code)) {
      throw await describeNotSoldThere(db, product, store.country_code);
    }
  }
  return { countryCode: store.country_code };
}

/**
 * The 400 for a type not sold in the store's country: retired there, or never in the catalog
 * for that country, said in words the create dialog shows as they are.
 */
async function describeNotSoldThere(
  db: Executor,
  product: { product_id: string; product_name: string },
  countryCode: string,
): Promise<AppError> {
  const [country, models] = await Promise.all([
    findCountry(db, countryCode),
    listProductModels(db, product.product_id, countryCode),
  ]);
  const place = country?.display_name ?? countryCode;
  const detail =
    models.length > 0
      ? `${product.product_name} is no longer sold in this store's country (${place})`
      : `${product.product_name} is not sold in this store's country (${place})`;
  return new AppError(400, ERROR_CODES.invalidInput, `product_type: ${detail}`, {
    field: 'product_type',
    reason: `${detail}. Please choose another product, or a store in a country where it is sold.`,
  });
}

async function resolvePreferredParts(
  db: Executor,
  productType: string,
  countryCode: string,
  models: readonly { part_number: string; is_preferred: boolean }[],
  isDroppingUnknown: boolean,
): Promise<string[]> {
  const known = new Set(
    (await listProductModels(db, productType, countryCode)).map((m) => m.part_number),
  );
  const preferred: string[] = [];
  for (const [index, model] of models.entries()) {
    if (!known.has(model.part_number)) {
      if (isDroppingUnknown) {
        continue;
      }
      throw invalidInput(
        `product_models.${index}.part_number`,
        `"${model.part_number}" is not a model of ${productType} in ${countryCode}`,
      );
    }
    if (model.is_preferred && !preferred.includes(model.part_number)) {
      preferred.push(model.part_number);
    }
  }
  return preferred;
}

/** The API's view of a search card: names, models with preferred flags, inventory count. */
function composeCardSearch(card: SearchCardRow): Search {
  return composeSearch(card, card.product_name, card, card.models);
}

/** Where a store the catalog does not hold is: its names fall back as the joins' nulls did. */
const UNKNOWN_PLACE: CardPlace = {
  store_name: null,
  store_city: null,
  store_state: null,
  country_code: null,
};

/** A listed search with its names and models from the catalog in memory. */
function composeListedSearch(row: SearchListRow, catalog: CardCatalog): Search {
  const place = catalog.placeOf(row.store_id) ?? UNKNOWN_PLACE;
  return composeSearch(
    row,
    catalog.productNameOf(row.product_type) ?? null,
    place,
    catalog.modelsOf(row.product_type, place.country_code),
  );
}

/**
 * The API's search from its own columns, its product's name, its store's place and the
 * models of its product in that store's country.
 */
function composeSearch(
  card: SearchListRow,
  productName: string | null,
  place: Omit<CardPlace, 'country_code'>,
  models: readonly SearchModel[],
): Search {
  const preferred = new Set(card.preferred_parts);
  return {
    search_id: card.id,
    id: card.id,
    product_type: card.product_type,
    product_name: productName ?? card.product_type,
    store_id: card.store_id,
    store_name: place.store_name ?? card.store_id,
    store_city: place.store_city ?? '',
    store_state: place.store_state,
    include_nearby_store_results: card.include_nearby_store_results,
    show_results_only_for_preferred_models: card.show_results_only_for_preferred_models,
    send_text_updates: card.send_text_updates,
    send_email_updates: card.send_email_updates,
    max_distance_miles: card.max_distance_miles,
    product_models: models.map((model) => ({
      part_number: model.part_number,
      display_name: model.display_name,
      is_preferred: preferred.has(model.part_number),
    })),
    stores_with_inventory: card.stores_with_inventory,
    is_paused: card.is_paused,
  };
}
