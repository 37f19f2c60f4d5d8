import type { ExampleInventoryEntry } from '#shared/api/inventory.ts';
import type { Executor } from '#server/db/database.ts';
import { countAvailableByProductAndStore } from '#server/db/repositories/availability-repository.ts';
import { listCurrentProductTypes } from '#server/db/repositories/catalog-changes-repository.ts';

/** Stores the landing page shows per product type at most. */
const EXAMPLE_STORES_PER_PRODUCT = 12;

/**
 * For each product type sold today, the stores with the most models available now; in the
 * picker's order, so the landing page leads with the newest types. Retired types are left out
 * (the landing page offers what a visitor can start watching).
 */
export async function computeExampleInventory(db: Executor): Promise<ExampleInventoryEntry[]> {
  const [counts, current] = await Promise.all([
    countAvailableByProductAndStore(db),
    listCurrentProductTypes(db),
  ]);
  const byProduct = new Map<string, ExampleInventoryEntry>();
  for (const row of counts) {
    const entry = byProduct.get(row.product_id) ?? { product_type: row.product_id, inventory: [] };
    if (entry.inventory.length < EXAMPLE_STORES_PER_PRODUCT) {
      entry.inventory.push({ store_id: row.store_id, product_count: Number(row.product_count) });
    }
    byProduct.set(row.product_id, entry);
  }
  return current.flatMap((type) => byProduct.get(type.product_id) ?? []);
}
