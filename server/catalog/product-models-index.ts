import type { Executor } from '#server/db/database.ts';
import { listAllProductModels } from '#server/db/repositories/catalog-repository.ts';
import type { SearchModel } from '#server/db/repositories/search-cards-repository.ts';
import { createCachedValue, type CachedValueSource } from './catalog-cache.ts';

/** The models of each product type per country, by display name then part number. */
export type ProductModelsIndex = {
  /** The models of `productId` sold in `countryCode`; none for an unknown pair or country. */
  modelsOf: (productId: string, countryCode: string | null) => readonly SearchModel[];
};

/**
 * How long a models index is used before it is reloaded in the background. Catalog changes
 * announce themselves (markCatalogChanged, across processes through catalog-notify.ts) and
 * make the next read wait for a fresh index; this bounds the life of one nobody announced.
 */
export const PRODUCT_MODELS_MAX_AGE_MS = 60_000;

const NO_MODELS: readonly SearchModel[] = Object.freeze([]);

/**
 * Every search card lists the models of its product in its store's country; a user's searches
 * share a few such lists, and the catalog holds a few thousand models in all. Read from memory
 * instead of as JSON built per search by PostgreSQL (and parsed per search by the API), a
 * cold search list costs both a good part less (issue 27).
 */
export function createProductModelsIndex(options: {
  db: Executor;
  maxAgeMs?: number;
  onRefreshError?: (error: unknown) => void;
}): CachedValueSource<ProductModelsIndex> {
  return createCachedValue({
    maxAgeMs: options.maxAgeMs ?? PRODUCT_MODELS_MAX_AGE_MS,
    onRefreshError: options.onRefreshError,
    load: async () => indexProductModels(await listAllProductModels(options.db)),
  });
}

/** The index of models read by listAllProductModels (in its order). */
export function indexProductModels(
  rows: readonly {
    product_id: string;
    country_code: string;
    part_number: string;
    display_name: string;
  }[],
): ProductModelsIndex {
  const byPair = new Map<string, SearchModel[]>();
  for (const row of rows) {
    const key = `${row.product_id}\n${row.country_code}`;
    let models = byPair.get(key);
    if (models === undefined) {
      models = [];
      byPair.set(key, models);
    }
    models.push({ part_number: row.part_number, display_name: row.display_name });
  }
  return {
    modelsOf: (productId, countryCode) =>
      countryCode === null ? NO_MODELS : (byPair.get(`${productId}\n${countryCode}`) ?? NO_MODELS),
  };
}
