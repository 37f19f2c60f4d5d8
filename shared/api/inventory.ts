import { z } from 'zod';
import { productModelSchema } from './searches.ts';

/** A store with the models available there now. */
export const inventoryStoreSchema = z.object({
  store_id: z.string(),
  store_name: z.string(),
  store_city: z.string(),
  store_state: z.string().nullable(),
  distance_miles: z.number().nullable(),
  available_models: z.array(productModelSchema),
});
/** A store row of a search's inventory. */
export type InventoryStore = z.infer<typeof inventoryStoreSchema>;

/** GET /v2/searches/{id}/inventory: the search's store first, then nearby, nearest first. */
export const searchInventorySchema = z.object({
  stores: z.array(inventoryStoreSchema),
  last_checked_at: z.string().nullable(),
  /** True when checks for this search are failing or late: show "alerts may be delayed", not stale stock as current. */
  is_stale: z.boolean().optional(),
  /** When the checks started failing, if they are. */
  checks_failing_since: z.string().nullable().optional(),
});
/** A search's inventory. */
export type SearchInventory = z.infer<typeof searchInventorySchema>;

/** One entry of the landing page's example inventory. */
export const exampleInventoryEntrySchema = z.object({
  product_type: z.string(),
  inventory: z.array(z.object({ store_id: z.string(), product_count: z.number().int() })),
});
/** Example inventory for one product type. */
export type ExampleInventoryEntry = z.infer<typeof exampleInventoryEntrySchema>;

/** GET /v2/inventory/example_inventory */
export const exampleInventorySchema = z.array(exampleInventoryEntrySchema);
