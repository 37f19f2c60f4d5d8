import type { Product, Store } from '#shared/api/catalog.ts';
import { COUNTRY_SEEDS } from '#shared/catalog/countries.ts';
import { getCountryDisplayName, localeToCountryCode } from '#shared/catalog/locale.ts';
import { readLocaleRegion } from '#shared/domain/store-options.ts';

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

/** Whether a new search may be made at the store: Apple's directory still lists it. */
export function isStoreOpen(store: Pick<Store, 'closed_on'>): boolean {
  return store.closed_on === null || store.closed_on === undefined;
}

/**
 * Stores where a new search of the product may be made (open ones); every open store while no
 * product is chosen.
 */
export function listStoresForProduct(
  stores: readonly Store[],
  product: Product | null | undefined,
): Store[] {
  const open = stores.filter(isStoreOpen);
  return product === null || product === undefined
    ? open
    : open.filter((store) => isSoldAtStore(product, store));
}

/** The catalog's name of a country ("China mainland", as Apple says), else Intl's. */
function nameCountry(code: string): string {
  return (
    COUNTRY_SEEDS.find((country) => country.country_code === code)?.display_name ??
    getCountryDisplayName(code)
  );
}

/** "Japan", "Japan and China mainland", "Japan, Singapore and China mainland". */
function listCountryNames(countryCodes: readonly string[]): string {
  const names = countryCodes.map((code) => nameCountry(code));
  return names.length < 2
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/**
 * Why the store list holds only foreign stores: the type is not sold in the visitor's country
 * (the region of the browser's language). Null when it is, or when that can't be told.
 */
export function describeSoldOnlyAbroad(
  product: Product | null | undefined,
  languageTag: string = navigator.language,
): string | null {
  if (product === null || product === undefined || !Array.isArray(product.sold_in)) return null;
  const region = readLocaleRegion(languageTag);
  if (region === undefined || product.sold_in.length === 0 || product.sold_in.includes(region)) {
    return null;
  }
  return `${product.product_name} isn't sold in your country (${nameCountry(region)}). Apple sells it only in ${listCountryNames(product.sold_in)}, so only stores there are listed.`;
}
