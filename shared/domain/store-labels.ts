import type { Country, Store } from '#shared/api/catalog.ts';

/** Example-inventory card place: "city, state_code", or "city, country_code" without a state. */
export function formatStoreCardLocation(
  store: Pick<Store, 'city' | 'state_code'>,
  country: Pick<Country, 'country_code'>,
): string {
  return store.state_code === null || store.state_code === ''
    ? `${store.city}, ${country.country_code}`
    : `${store.city}, ${store.state_code}`;
}

/** "1 type" or "{n} types" of products available at a store. */
export function formatProductTypeCount(count: number): string {
  return count === 1 ? '1 type' : `${count} types`;
}

/** One example-inventory card, ready to render. */
export type ExampleStoreCard = {
  storeId: string;
  storeName: string;
  location: string;
  typesText: string;
};

/**
 * Cards for one product's example inventory. A card shows only if its store and the store's
 * country (store.country_locale matched to country.locale_code) are both known.
 */
export function buildExampleStoreCards(
  inventory: readonly { store_id: string; product_count: number }[],
  stores: readonly Store[],
  countries: readonly Country[],
): ExampleStoreCard[] {
  const storesById = new Map(stores.map((store) => [store.store_id, store]));
  const countriesByLocale = new Map(countries.map((country) => [country.locale_code, country]));
  return inventory.flatMap((entry) => {
    const store = storesById.get(entry.store_id);
    const country = store === undefined ? undefined : countriesByLocale.get(store.country_locale);
    if (store === undefined || country === undefined) {
      return [];
    }
    return [
      {
        storeId: store.store_id,
        storeName: store.store_name,
        location: formatStoreCardLocation(store, country),
        typesText: formatProductTypeCount(entry.product_count),
      },
    ];
  });
}
