import type { Executor } from '#server/db/database.ts';
import {
  listAllProductModels,
  listProductTypes,
  listStorePlaces,
  type StorePlaceRow,
} from '#server/db/repositories/catalog-repository.ts';
import { createCachedValue, type CachedValueSource } from './catalog-cache.ts';
import {
  indexProductModels,
  PRODUCT_MODELS_MAX_AGE_MS,
  type ProductModelsIndex,
} from './product-models-index.ts';

/** Where a store is, as a search card shows it (names null for a store the catalog lacks). */
export type CardPlace = Omit<StorePlaceRow, 'store_id' | 'store_name' | 'store_city'> & {
  store_name: string | null;
  store_city: string | null;
};

/** What a search card shows from the catalog: models, product names and store places. */
export type CardCatalog = ProductModelsIndex & {
  /** The store's place; undefined for a store the catalog does not hold. */
  placeOf: (storeId: string) => CardPlace | undefined;
  /** The product type's name; undefined for one the catalog does not hold. */
  productNameOf: (productId: string) => string | undefined;
};

/**
 * The catalog a search list is composed with, kept in memory and reloaded as createCachedValue
 * says (catalog changes announced in any process, or after `maxAgeMs`). A list then reads only
 * the searches' own columns: joining stores, countries and product types for every card cost
 * PostgreSQL most of the statement, and the API a fifth more fields to parse (issue 27).
 */
export function createCardCatalog(options: {
  db: Executor;
  maxAgeMs?: number;
  onRefreshError?: (error: unknown) => void;
}): CachedValueSource<CardCatalog> {
  return createCachedValue({
    maxAgeMs: options.maxAgeMs ?? PRODUCT_MODELS_MAX_AGE_MS,
    onRefreshError: options.onRefreshError,
    load: async (): Promise<CardCatalog> => {
      const [models, places, products] = await Promise.all([
        listAllProductModels(options.db),
        listStorePlaces(options.db),
        listProductTypes(options.db),
      ]);
      const placeByStore = new Map<string, CardPlace>(
        places.map(({ store_id, ...place }) => [store_id, place]),
      );
      const nameByProduct = new Map(
        products.map((product) => [product.product_id, product.product_name]),
      );
      return {
        ...indexProductModels(models),
        placeOf: (storeId) => placeByStore.get(storeId),
        productNameOf: (productId) => nameByProduct.get(productId),
      };
    },
  });
}
