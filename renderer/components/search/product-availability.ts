import type { Product, Store } from '#shared/api/catalog.ts';
import { localeToCountryCode } from '#shared/catalog/locale.ts';

// A product type is retired per country: /v2/products lists with each type the countries where
// it is sold, and the pickers offer a type at a store only where it is.

/** The two-letter country of a store, from its directory locale (en_AU -> AU). */
export function getStoreCountry(store: Pick<Store, 'country_locale'>): string | undefined {
  return localeToCountryCode(store.country_locale);
}

/**
 * Whether a type is sold at a store's country. A list without `sold_in` (an older server) or a
 * store whose country can't be read leaves the type offered, as before per-country retirement.
 */
export function isSoldAtStore(product: Product, store: Pick<Store, 'country_locale'>): boolean {
  const country = getStoreCountry(store);
  return !Array.isArray(product.sold_in) || country === undefined
    ? true
    : product.sold_in.includes(country);
}

/** Products a new search at the store may watch; every product while no store is chosen. */
export function listProductsForStore(
  products: readonly Product[],
  store: Store | null | undefined,
): Product[] {
  return store === null || store === undefined
    ? [...products]
    : products.filter((product) => isSoldAtStore(product, store));
}

/** Stores where a new search of the product may be made; every store while none is chosen. */
export function listStoresForProduct(
  stores: readonly Store[],
  product: Product | null | undefined,
): Store[] {
  return product === null || product === undefined
    ? [...stores]
    : stores.filter((store) => isSoldAtStore(product, store));
}
