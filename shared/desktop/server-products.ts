import type { Product } from '#shared/api/catalog.ts';

/**
 * The app's product list refreshed from the server's `/v2/products` when it answers: the
 * bundled types the server still offers, in the server's order and with its names, so a type
 * a sync retired disappears and a renamed one follows. Types the server offers but the app
 * has no part numbers for are left out (a local search could not watch them); when the two
 * lists share nothing (another server, a broken answer) the bundled list stands. A type is
 * offered in a country only where both say it is sold: the server knows of retirements since
 * the build, the app only has part numbers for the countries it shipped with. A server that
 * predates `sold_in` leaves the bundled countries.
 */
export function mergeServerProducts(
  bundled: readonly Product[],
  server: readonly Product[],
): Product[] {
  const known = new Map(bundled.map((product) => [product.product_id, product]));
  const merged = server.flatMap((product): Product[] => {
    const own = known.get(product.product_id);
    if (own === undefined) return [];
    const serverSoldIn: unknown = product.sold_in;
    const soldIn = Array.isArray(serverSoldIn)
      ? own.sold_in.filter((country) => serverSoldIn.includes(country))
      : own.sold_in;
    return [
      { product_id: product.product_id, product_name: product.product_name, sold_in: soldIn },
    ];
  });
  return merged.length === 0 ? [...bundled] : merged;
}
