import Badge from 'react-bootstrap/Badge';
import type { Product, Store } from '#shared/api/catalog.ts';
import { isSoldAtStore } from './product-availability.ts';

/** The words a search of a retired product type shows. */
export const NO_LONGER_SOLD_TEXT = 'No longer sold';

/**
 * Whether a search watches a type the catalog no longer offers: missing from the product list
 * (sold nowhere), or, once its store is known, not sold in that store's country. False while
 * the list is loading, so nothing flickers.
 */
export function isNoLongerSold(
  productType: string,
  products: readonly Product[] | undefined,
  store?: Pick<Store, 'country_locale'>,
): boolean {
  if (products === undefined) return false;
  const product = products.find((candidate) => candidate.product_id === productType);
  return product === undefined || (store !== undefined && !isSoldAtStore(product, store));
}

/**
 * The product list with the search's own type added when it is no longer offered, so its
 * settings still show what it watches ("iPhone 16 Pro (no longer sold)").
 */
export function includeSearchProduct(
  products: readonly Product[],
  search: { product_type: string; product_name: string },
  store?: Pick<Store, 'country_locale'>,
): Product[] {
  if (!isNoLongerSold(search.product_type, products, store)) return [...products];
  // Still sold elsewhere, it keeps its countries: the search may move to a store there.
  const listed = products.find((product) => product.product_id === search.product_type);
  const others = products.filter((product) => product !== listed);
  return [
    ...others,
    {
      product_id: search.product_type,
      product_name: `${search.product_name} (no longer sold)`,
      sold_in: listed?.sold_in ?? [],
    },
  ];
}

/** The label beside a retired type's name: its searches keep working, nothing new is offered. */
export function NoLongerSoldBadge() {
  return (
    <Badge bg="light" text="dark" className="border flex-shrink-0 fw-normal">
      {NO_LONGER_SOLD_TEXT}
    </Badge>
  );
}
