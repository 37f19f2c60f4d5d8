import type { Product } from '#shared/api/catalog.ts';
import type { DesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import type { LocalWatchCatalog } from './local-catalog.ts';
import { isPartRetired } from './local-retirement.ts';
import type { LocalWatchState } from './state.ts';

// The server drops a country from a type's `sold_in` once Apple's answers retired every model
// of it there, so its searches read "No longer sold". The Mac learns retirements from its own
// answers, kept in the loop's state, so its product list applies the same rule over them.

/**
 * True when this machine's answers retired every model the catalog lists for the type in the
 * country; false when the catalog lists none (that is the catalog's word, not the answers').
 */
export function isRetiredLocally(
  state: LocalWatchState,
  catalog: LocalWatchCatalog,
  productId: string,
  countryCode: string,
): boolean {
  const models = catalog.listModels(productId, countryCode);
  return (
    models.length > 0 &&
    models.every((model) => isPartRetired(state, catalog, countryCode, model.part_number))
  );
}

/** The product list without the countries where this machine's answers retired the type. */
export function withdrawLocallyRetired(
  products: readonly Product[],
  state: LocalWatchState,
  catalog: LocalWatchCatalog,
): Product[] {
  return products.map((product) => {
    const soldIn = product.sold_in.filter(
      (country) => !isRetiredLocally(state, catalog, product.product_id, country),
    );
    return soldIn.length === product.sold_in.length ? product : { ...product, sold_in: soldIn };
  });
}

/**
 * The app's catalog as its screens and new searches see it: the bundled one, less what the
 * local loop's answers retired (read afresh on every call, as retirements come and go).
 */
export function applyLocalRetirements(
  catalog: DesktopCatalog,
  readState: () => LocalWatchState,
): DesktopCatalog {
  return {
    ...catalog,
    listProducts: () => withdrawLocallyRetired(catalog.listProducts(), readState(), catalog),
    findProduct: (productId) => {
      const product = catalog.findProduct(productId);
      return product === undefined
        ? undefined
        : withdrawLocallyRetired([product], readState(), catalog)[0];
    },
    isSoldIn: (productId, countryCode) =>
      catalog.isSoldIn(productId, countryCode) &&
      !isRetiredLocally(readState(), catalog, productId, countryCode),
  };
}
