import type { Country, Product, Store } from '#shared/api/catalog.ts';
import {
  COUNTRY_SEEDS,
  PRODUCT_MODEL_SEEDS,
  PRODUCT_TYPE_SEEDS,
  STORE_SEEDS,
  isModelSold,
  listCurrentProductTypes,
  localeToCountryCode,
  type ProductModelSeed,
  type ProductTypeSeed,
  type StoreSeed,
} from '#shared/catalog/index.ts';

/** A store with the country its requests go to. */
export type CatalogStore = {
  store_id: string;
  store_name: string;
  city: string;
  state_code: string | null;
  country_code: string;
  /** Asked as the store's location (`location=`) by the watch loop; null where none is known. */
  postal_code: string | null;
  latitude: number | null;
  longitude: number | null;
};

/**
 * The catalog the macOS app ships with (shared/catalog's curated seed), so it works with no
 * server: the lists the screens show (in the API's shapes and order) and the look-ups the
 * local watch loop and search views need.
 */
export type DesktopCatalog = {
  listProducts: () => Product[];
  listStores: () => Store[];
  listCountries: () => Country[];
  findProduct: (productId: string) => Product | undefined;
  /** Whether a new search of the type may be made in the country: a model of it is sold there. */
  isSoldIn: (productId: string, countryCode: string) => boolean;
  findStore: (storeId: string) => CatalogStore | undefined;
  /** The stores of a country (the watch loop estimates which stores one answer lists). */
  listCountryStores: (countryCode: string) => readonly CatalogStore[];
  /** Models of a product type sold in a country, by display name. */
  listModels: (
    productId: string,
    countryCode: string,
  ) => { part_number: string; display_name: string }[];
};

/** Builds the catalog over the seed, with indexes for the look-ups. */
export function createDesktopCatalog(
  seed: {
    stores?: readonly StoreSeed[];
    models?: readonly ProductModelSeed[];
  } = {},
): DesktopCatalog {
  const storeSeeds = seed.stores ?? STORE_SEEDS;
  const modelSeeds = seed.models ?? PRODUCT_MODEL_SEEDS;
  // Same orders and rules as the server's /v2/products: types sold nowhere are not offered for
  // new searches, but stay findable so a local search made before their retirement still shows.
  const byOrder = (a: ProductTypeSeed, b: ProductTypeSeed): number =>
    a.sort_order - b.sort_order || a.product_id.localeCompare(b.product_id);
  // Countries where each type has a model sold; a type retired everywhere is sold nowhere.
  const soldIn = new Map<string, Set<string>>();
  for (const model of modelSeeds.filter(isModelSold)) {
    soldIn.set(
      model.product_id,
      (soldIn.get(model.product_id) ?? new Set()).add(model.country_code),
    );
  }
  const current = listCurrentProductTypes(PRODUCT_TYPE_SEEDS, modelSeeds);
  const currentIds = new Set(current.map((type) => type.product_id));
  const toProduct = ({ product_id, product_name }: ProductTypeSeed): Product => ({
    product_id,
    product_name,
    sold_in: currentIds.has(product_id) ? [...(soldIn.get(product_id) ?? [])].sort() : [],
  });
  const products: Product[] = current.sort(byOrder).map(toProduct);
  const allProducts: Product[] = [...PRODUCT_TYPE_SEEDS].sort(byOrder).map(toProduct);
  const stores: Store[] = [...storeSeeds]
    .sort(
      (a, b) =>
        a.country_locale.localeCompare(b.country_locale) ||
        a.store_name.localeCompare(b.store_name),
    )
    .map(({ latitude: _latitude, longitude: _longitude, ...store }) => store);
  const countries: Country[] = [...COUNTRY_SEEDS].sort((a, b) =>
    a.display_name.localeCompare(b.display_name),
  );
  const storesById = new Map<string, CatalogStore>();
  const storesByCountry = new Map<string, CatalogStore[]>();
  for (const store of storeSeeds) {
    const countryCode = localeToCountryCode(store.country_locale);
    if (countryCode === undefined) continue;
    const entry: CatalogStore = {
      store_id: store.store_id,
      store_name: store.store_name,
      city: store.city,
      state_code: store.state_code,
      country_code: countryCode,
      postal_code: store.postal_code,
      latitude: store.latitude,
      longitude: store.longitude,
    };
    storesById.set(store.store_id, entry);
    storesByCountry.set(countryCode, [...(storesByCountry.get(countryCode) ?? []), entry]);
  }
  const modelsByKey = new Map<string, { part_number: string; display_name: string }[]>();
  for (const model of modelSeeds) {
    const key = `${model.product_id}|${model.country_code}`;
    const list = modelsByKey.get(key) ?? [];
    list.push({ part_number: model.part_number, display_name: model.display_name });
    modelsByKey.set(key, list);
  }
  for (const list of modelsByKey.values()) {
    list.sort((a, b) => a.display_name.localeCompare(b.display_name));
  }
  return {
    listProducts: () => products,
    listStores: () => stores,
    listCountries: () => countries,
    findProduct: (productId) => allProducts.find((product) => product.product_id === productId),
    isSoldIn: (productId, countryCode) =>
      allProducts.some(
        (product) => product.product_id === productId && product.sold_in.includes(countryCode),
      ),
    findStore: (storeId) => storesById.get(storeId),
    listCountryStores: (countryCode) => storesByCountry.get(countryCode) ?? [],
    listModels: (productId, countryCode) => modelsByKey.get(`${productId}|${countryCode}`) ?? [],
  };
}
