import type { Search, SearchUpdate } from '#shared/api/searches.ts';

/**
 * The search as it will read once the server accepts the update, for showing a toggle's new
 * state at once. A new product type or store changes names and models only the server knows,
 * so such an update leaves the search as it was until the answer comes.
 */
export function applyOptimisticUpdate(search: Search, update: SearchUpdate): Search {
  if (update.product_type !== search.product_type || update.store_id !== search.store_id) {
    return search;
  }
  const { product_models: models, ...settings } = update;
  const preferred = new Set(
    models.filter((model) => model.is_preferred).map((model) => model.part_number),
  );
  // Settings the update leaves out (undefined) keep their current value.
  const changed = Object.fromEntries(
    Object.entries(settings).filter(([, value]) => value !== undefined),
  ) as Partial<Search>;
  return {
    ...search,
    ...changed,
    product_models: search.product_models.map((model) => ({
      ...model,
      is_preferred: preferred.has(model.part_number),
    })),
  };
}
