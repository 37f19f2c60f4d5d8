import type { InventoryStore, SearchInventory } from '#shared/api/inventory.ts';
import { createBatchLoader } from '#server/db/batch-loader.ts';
import type { Executor } from '#server/db/database.ts';
import type { SearchModel } from '#server/db/repositories/search-cards-repository.ts';
import {
  findManySearchInventorySources,
  type SearchInventorySources,
} from '#server/db/repositories/search-sources-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { computeStaleAfterMs, readWatchFreshness } from '#server/watch/freshness-status.ts';
import { describeCheckHealth, describeLateBefore } from '#server/watch/search-reads.ts';
import { notFound } from '#server/base/app-error.ts';
import type { CachedValueSource } from '#server/catalog/catalog-cache.ts';
import {
  createProductModelsIndex,
  type ProductModelsIndex,
} from '#server/catalog/product-models-index.ts';

/**
 * One of the user's searches' inventory, read in one statement; anyone else's is a 404. The
 * search's store and, when nearby results are on, its neighbours within the search's
 * distance limit, nearest first. Nearby stores appear only with something available; the
 * search's own store appears once it has been checked at all, so "No models available"
 * means checked-and-empty and "No inventory found" means nothing is known yet.
 */
export async function readSearchInventory(
  db: Executor,
  user: UserRow,
  searchId: string,
  now: number = Date.now(),
): Promise<SearchInventory> {
  // One read: the models of an index of its own.
  const read = createSearchInventoryReader(db, {
    productModels: createProductModelsIndex({ db }),
    clock: () => now,
  });
  return await read(user, searchId);
}

/**
 * readSearchInventory for the route: reads asked for together go to the database in one
 * statement (createBatchLoader), at one clock reading taken when the batch is sent, and the
 * models' names come from memory (`productModels`). Nothing is kept beyond the batch;
 * anyone else's search is a 404 as before.
 */
export function createSearchInventoryReader(
  db: Executor,
  options: { productModels: CachedValueSource<ProductModelsIndex>; clock?: () => number },
): (user: UserRow, searchId: string) => Promise<SearchInventory> {
  const clock = options.clock ?? Date.now;
  const loadInventory = createBatchLoader((searches: readonly SearchKey[]) =>
    readInventorySources(db, searches, clock()),
  );
  return async (user, searchId) => {
    const [read, models] = await Promise.all([
      loadInventory({ userId: user.id, searchId }),
      options.productModels.read(),
    ]);
    return composeInventoryRead(read, models);
  };
}

type SearchKey = { userId: string; searchId: string };
type InventoryRead = {
  sources: SearchInventorySources | undefined;
  now: number;
  staleAfterMs: number;
};

/** What the inventories of `searches` are built from, in one statement at one clock reading. */
async function readInventorySources(
  db: Executor,
  searches: readonly SearchKey[],
  now: number,
): Promise<InventoryRead[]> {
  const staleAfterMs = computeStaleAfterMs(await readWatchFreshness(db, now));
  const found = await findManySearchInventorySources(db, {
    searches,
    now: new Date(now),
    lateBefore: describeLateBefore(now, staleAfterMs),
  });
  return found.map((sources) => ({ sources, now, staleAfterMs }));
}

/** The answer for one read; someone else's (or no) search is a 404. */
function composeInventoryRead(read: InventoryRead, models: ProductModelsIndex): SearchInventory {
  if (read.sources === undefined) {
    throw notFound('Search');
  }
  const { sources } = read;
  return buildSearchInventory(
    sources,
    models.modelsOf(sources.product_type, sources.home_country_code),
    read.now,
    read.staleAfterMs,
  );
}

/**
 * The inventory answer from what the database returned for one search and the models of its
 * product in its store's country.
 */
export function buildSearchInventory(
  sources: SearchInventorySources,
  models: readonly SearchModel[],
  now: number = Date.now(),
  staleAfterMs?: number,
): SearchInventory {
  if (sources.home_country_code === null) {
    return { stores: [], last_checked_at: null };
  }
  const preferredParts = new Set(sources.preferred_parts);
  const modelByPart = new Map(models.map((model) => [model.part_number, model]));
  const isShownPart = (part: string): boolean =>
    !sources.show_results_only_for_preferred_models || preferredParts.has(part);
  const availableByStore = new Map<string, string[]>();
  for (const snapshot of sources.available) {
    if (isShownPart(snapshot.part_number)) {
      const parts = availableByStore.get(snapshot.store_id) ?? [];
      parts.push(snapshot.part_number);
      availableByStore.set(snapshot.store_id, parts);
    }
  }
  const lastCheckedAt = sources.home_last_checked_at;
  const rows: InventoryStore[] = [];
  for (const store of sources.covered_stores) {
    const parts = availableByStore.get(store.store_id) ?? [];
    const isHome = store.store_id === sources.store_id;
    if (isHome ? lastCheckedAt === null : parts.length === 0) {
      continue;
    }
    rows.push({
      store_id: store.store_id,
      store_name: store.store_name,
      store_city: store.city,
      store_state: store.state_code,
      distance_miles: store.distance_miles,
      available_models: parts
        .map((part) => ({
          part_number: part,
          display_name: modelByPart.get(part)?.display_name ?? part,
          is_preferred: preferredParts.has(part),
        }))
        .sort(
          (a, b) =>
            Number(b.is_preferred) - Number(a.is_preferred) ||
            a.display_name.localeCompare(b.display_name),
        ),
    });
  }
  return {
    stores: rows,
    last_checked_at: lastCheckedAt?.toISOString() ?? null,
    ...(describeCheckHealth(sources, now, staleAfterMs) ?? {}),
  };
}
