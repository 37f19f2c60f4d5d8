import type {
  ExampleInventoryEntry,
  InventoryStore,
  SearchInventory,
} from '#shared/api/inventory.ts';
import type { Executor } from '#server/db/database.ts';
import {
  countAvailableByProductAndStore,
  listNeighbours,
  listSnapshots,
} from '#server/db/repositories/availability-repository.ts';
import {
  findStoresByIds,
  findStoreWithCountry,
  listProductModels,
} from '#server/db/repositories/catalog-repository.ts';
import type { SearchRow } from '#server/db/schema.ts';
import { describeCheckHealth } from '#server/watch/reads.ts';

/** The search's store (with its country) and the product's models sold there. */
export type SearchCatalog = {
  home: Awaited<ReturnType<typeof findStoreWithCountry>>;
  models: Awaited<ReturnType<typeof listProductModels>>;
};

/** Looks up the catalog rows a search's inventory and its API view both need. */
export async function loadSearchCatalog(db: Executor, search: SearchRow): Promise<SearchCatalog> {
  const home = await findStoreWithCountry(db, search.store_id);
  const models =
    home === undefined ? [] : await listProductModels(db, search.product_type, home.country_code);
  return { home, models };
}

/** Stores the landing page shows per product type at most. */
const EXAMPLE_STORES_PER_PRODUCT = 12;

/**
 * The search's store and, when nearby results are on, its neighbours within the search's
 * distance limit, nearest first. Nearby stores appear only with something available; the
 * search's own store appears once it has been checked at all, so "No models available"
 * means checked-and-empty and "No inventory found" means nothing is known yet.
 */
export async function computeSearchInventory(
  db: Executor,
  search: SearchRow,
  preferredParts: ReadonlySet<string>,
  catalog?: SearchCatalog,
): Promise<SearchInventory> {
  const { home, models } = catalog ?? (await loadSearchCatalog(db, search));
  if (home === undefined) {
    return { stores: [], last_checked_at: null };
  }
  const neighbours = search.include_nearby_store_results
    ? await listNeighbours(db, search.store_id, search.max_distance_miles)
    : [];
  const storeIds = [search.store_id, ...neighbours.map((n) => n.neighbour_store_id)];
  const partNumbers = models.map((model) => model.part_number);
  const [snapshots, stores] = await Promise.all([
    listSnapshots(db, storeIds, partNumbers),
    findStoresByIds(db, storeIds),
  ]);
  const storeById = new Map(stores.map((store) => [store.store_id, store]));
  const modelByPart = new Map(models.map((model) => [model.part_number, model]));
  const isShownPart = (part: string): boolean =>
    !search.show_results_only_for_preferred_models || preferredParts.has(part);

  const availableByStore = new Map<string, string[]>();
  let lastCheckedAt: Date | null = null;
  for (const snapshot of snapshots) {
    if (
      snapshot.store_id === search.store_id &&
      (lastCheckedAt === null || snapshot.observed_at > lastCheckedAt)
    ) {
      lastCheckedAt = snapshot.observed_at;
    }
    if (snapshot.status === 'available' && isShownPart(snapshot.part_number)) {
      const parts = availableByStore.get(snapshot.store_id) ?? [];
      parts.push(snapshot.part_number);
      availableByStore.set(snapshot.store_id, parts);
    }
  }

  const rows: InventoryStore[] = [];
  const distances = new Map<string, number | null>([
    [search.store_id, 0],
    ...neighbours.map((n): [string, number] => [n.neighbour_store_id, n.distance_miles]),
  ]);
  for (const storeId of storeIds) {
    const store = storeById.get(storeId);
    const parts = availableByStore.get(storeId) ?? [];
    const isHome = storeId === search.store_id;
    if (store === undefined || (isHome ? lastCheckedAt === null : parts.length === 0)) {
      continue;
    }
    rows.push({
      store_id: store.store_id,
      store_name: store.store_name,
      store_city: store.city,
      store_state: store.state_code,
      distance_miles: distances.get(storeId) ?? null,
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
    ...((await describeCheckHealth(db, search)) ?? {}),
  };
}

/** How many stores of an inventory have something to show (the search card's count). */
export function countStoresWithInventory(inventory: SearchInventory): number {
  return inventory.stores.filter((store) => store.available_models.length > 0).length;
}

/** For each product type, the stores with the most models available now. */
export async function computeExampleInventory(db: Executor): Promise<ExampleInventoryEntry[]> {
  const counts = await countAvailableByProductAndStore(db);
  const byProduct = new Map<string, ExampleInventoryEntry>();
  for (const row of counts) {
    const entry = byProduct.get(row.product_id) ?? { product_type: row.product_id, inventory: [] };
    if (entry.inventory.length < EXAMPLE_STORES_PER_PRODUCT) {
      entry.inventory.push({ store_id: row.store_id, product_count: Number(row.product_count) });
    }
    byProduct.set(row.product_id, entry);
  }
  return [...byProduct.values()];
}
