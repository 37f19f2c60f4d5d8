import type { Product } from '#shared/api/catalog.ts';

/**
 * The app's product list refreshed from the server's `/v2/products` when it answers: the
 * bundled types the server still offers, in the server's order and with its names, so a type
 * a sync retired disappears and a renamed one follows. Types the server offers but the app
 * has no part numbers for are left out (a local search could not watch them); when the two
 * lists share nothing (another server, a broken answer) the bundled list stands.
 */
export function mergeServerProducts(
  bundled: readonly Product[],
  server: readonly Product[],
): Product[] {
  const known = new Set(bundled.map((product) => product.product_id));
  const merged = server.filter((product) => known.has(product.product_id));
  return merged.length === 0 ? [...bundled] : merged;
}
