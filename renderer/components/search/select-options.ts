import type { Product, Store } from '#shared/api/catalog.ts';
import { isWatchKitType, WATCH_KIT_NOTE } from '#shared/catalog/watch-kits.ts';
import {
  formatStoreOptionLabel,
  matchesStoreFilter,
  orderStoresForLocale,
} from '#shared/domain/store-options.ts';

/**
 * A react-select option for a product type; one that cannot be watched is disabled and carries
 * the note that says why.
 */
export type ProductOption = { value: string; label: string; isDisabled?: boolean; note?: string };

/** A react-select option for a store, keeping the store for filtering by state name. */
export type StoreOption = { value: string; label: string; store: Store };

/** Spec: dropdown menu between 140 and 300 px tall, page up/down moves 5 options. */
export const SELECT_MENU_PROPS = { maxMenuHeight: 300, minMenuHeight: 140, pageSize: 5 } as const;

/**
 * Product options in catalog order. Apple Watch types are listed, disabled, with the note that
 * their stock can't be watched yet (Apple answers only for a case together with a band).
 */
export function toProductOptions(products: readonly Product[]): ProductOption[] {
  return products.map((product) => {
    const option = { value: product.product_id, label: product.product_name };
    return isWatchKitType(product.product_id)
      ? { ...option, isDisabled: true, note: WATCH_KIT_NOTE }
      : option;
  });
}

/**
 * Store options labelled "name | city, state code": the visitor's country first (from the
 * browser's language), then the rest, each alphabetical.
 */
export function toStoreOptions(
  stores: readonly Store[],
  languageTag: string = navigator.language,
): StoreOption[] {
  return orderStoresForLocale(stores, languageTag).map((store) => ({
    value: store.store_id,
    label: formatStoreOptionLabel(store),
    store,
  }));
}

/** react-select filter: label, full state name or postal code, ignoring case. */
export function filterStoreOption(option: { data: StoreOption }, input: string): boolean {
  return matchesStoreFilter(option.data.store, input);
}
