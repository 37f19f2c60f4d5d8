import type { DesktopCatalog } from '#shared/desktop/desktop-catalog.ts';

// What the local loop reads of the catalog, and the distances it measures from it where no
// answer has given Apple's own yet.

const EARTH_RADIUS_MILES = 3958.8;

/** What the loop needs to know about the catalog. */
export type LocalWatchCatalog = Pick<
  DesktopCatalog,
  'findStore' | 'listModels' | 'listCountryStores'
>;

/** Great-circle distance in miles between two catalog stores; null without coordinates. */
export function measureStoreMiles(
  from: { latitude: number | null; longitude: number | null },
  to: { latitude: number | null; longitude: number | null },
): number | null {
  if (from.latitude === null || from.longitude === null) return null;
  if (to.latitude === null || to.longitude === null) return null;
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(to.latitude - from.latitude);
  const dLon = radians(to.longitude - from.longitude);
  const a =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(from.latitude)) * Math.cos(radians(to.latitude)) * Math.sin(dLon / 2) ** 2;
  const miles = 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
  return Math.round(miles * 10) / 10;
}

/** The catalog stores of the same country nearest to a store, nearest first (itself excluded). */
export function listNearestStoreIds(
  catalog: LocalWatchCatalog,
  storeId: string,
  limit: number,
): string[] {
  const home = catalog.findStore(storeId);
  if (home === undefined) return [];
  return catalog
    .listCountryStores(home.country_code)
    .filter((store) => store.store_id !== storeId)
    .map((store) => ({ id: store.store_id, miles: measureStoreMiles(home, store) ?? Infinity }))
    .sort((a, b) => a.miles - b.miles || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map((entry) => entry.id);
}
