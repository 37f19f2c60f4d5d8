import Badge from 'react-bootstrap/Badge';
import type { Product } from '#shared/api/catalog.ts';

/** The words a search of a retired product type shows. */
export const NO_LONGER_SOLD_TEXT = 'No longer sold';

/**
 * Whether a search watches a type the catalog no longer offers (it is missing from the
 * product list); false while the list is loading, so nothing flickers.
 */
export function isNoLongerSold(
  productType: string,
  products: readonly Product[] | undefined,
): boolean {
  return products !== undefined && !products.some((product) => product.product_id === productType);
}

/**
 * The product list with the search's own type added when it is no longer offered, so its
 * settings still show what it watches ("iPhone 16 Pro (no longer sold)").
 */
export function includeSearchProduct(
  products: readonly Product[],
  search: { product_type: string; product_name: string },
): Product[] {
  if (!isNoLongerSold(search.product_type, products)) return [...products];
  return [
    ...products,
    { product_id: search.product_type, product_name: `${search.product_name} (no longer sold)` },
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
