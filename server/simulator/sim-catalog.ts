import type { CountrySeed, ProductModelSeed, StoreSeed } from '#shared/catalog/index.ts';
import {
  getCountryStore,
  isSupportedCountry,
  listCountryPaths,
  type DistanceUnit,
} from '#shared/upstream/index.ts';

// The simulator's read-only view of the catalog: which country a URL path means, which
// stores and parts exist there, and which stores are nearest to which.

/** A seeded store with the country code its locale belongs to. */
export type SimStore = StoreSeed & { countryCode: string };

/** A store listed in an answer, with its distance from the searched store. */
export type ListedStore = { store: SimStore; distanceKm: number };

/**
 * Where a `location=` query points: the store whose postal code it is, or the middle of a
 * city's seeded stores (the simulator has no gazetteer, so a city is where its stores are).
 */
export type SearchLocation = {
  countryCode: string;
  latitude: number;
  longitude: number;
  /** The store at that postal code; undefined for a city. */
  origin: SimStore | undefined;
  /** The location as the answer echoes it: the seeded postal code or city name. */
  label: string;
};

/** Lookups the pickup and control routes need. */
export type SimCatalog = {
  /** Country code served under a path prefix ("" for the US, "uk", "hk/en"). */
  findCountryByPath(countryPath: string): string | undefined;
  /** A store of that country by Apple store number. */
  findStore(countryCode: string, storeId: string): SimStore | undefined;
  /** A seeded postal code or city name of that country, spacing and case ignored. */
  findLocation(countryCode: string, location: string): SearchLocation | undefined;
  /** The stores of the location's country nearest to it, nearest first, at most `limit`. */
  listStoresNear(location: SearchLocation, limit: number): ListedStore[];
  /** Any seeded store by number, whatever its country. */
  findAnyStore(storeId: string): SimStore | undefined;
  /** The model of that country with this part number. */
  findModel(countryCode: string, partNumber: string): ProductModelSeed | undefined;
  /** The origin first, then up to `limit - 1` same-country neighbours nearest first. */
  listNearestStores(origin: SimStore, limit: number): ListedStore[];
  /** Distance unit Apple uses in that country. */
  getDistanceUnit(countryCode: string): DistanceUnit;
};

const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance between two coordinates, in kilometres. */
export function measureDistanceKm(
  from: { latitude: number; longitude: number },
  to: { latitude: number; longitude: number },
): number {
  const toRadians = (degrees: number): number => (degrees * Math.PI) / 180;
  const deltaLat = toRadians(to.latitude - from.latitude);
  const deltaLon = toRadians(to.longitude - from.longitude);
  const a =
    Math.sin(deltaLat / 2) ** 2 +
    Math.cos(toRadians(from.latitude)) *
      Math.cos(toRadians(to.latitude)) *
      Math.sin(deltaLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Indexes the seeds; countries Apple's client cannot address are left out. */
export function buildSimCatalog(
  stores: readonly StoreSeed[],
  models: readonly ProductModelSeed[],
  countries: readonly CountrySeed[],
): SimCatalog {
  const countryByPath = new Map<string, string>();
  const countryByLocale = new Map<string, string>();
  for (const country of countries) {
    if (!isSupportedCountry(country.country_code)) continue;
    // Alternative language paths (Hong Kong's /hk/, /hk-zh/) answer as the country's own.
    for (const path of listCountryPaths(country.country_code)) {
      countryByPath.set(path, country.country_code);
    }
    countryByLocale.set(country.locale_code, country.country_code);
  }
  const storesByCountry = new Map<string, SimStore[]>();
  const storesById = new Map<string, SimStore>();
  for (const seed of stores) {
    const countryCode = countryByLocale.get(seed.country_locale);
    if (countryCode === undefined) continue;
    const store: SimStore = { ...seed, countryCode };
    storesById.set(store.store_id, store);
    const list = storesByCountry.get(countryCode) ?? [];
    list.push(store);
    storesByCountry.set(countryCode, list);
  }
  const modelsByKey = new Map<string, ProductModelSeed>();
  for (const model of models) modelsByKey.set(`${model.country_code}|${model.part_number}`, model);
  const nearestCache = new Map<string, ListedStore[]>();

  const listAllByDistance = (origin: SimStore): ListedStore[] => {
    const cached = nearestCache.get(origin.store_id);
    if (cached !== undefined) return cached;
    const neighbours = (storesByCountry.get(origin.countryCode) ?? [])
      .filter((store) => store.store_id !== origin.store_id)
      .map((store) => ({ store, distanceKm: measureDistanceKm(origin, store) }))
      // Ties broken by store number so every run lists stores in the same order.
      .sort(
        (a, b) => a.distanceKm - b.distanceKm || a.store.store_id.localeCompare(b.store.store_id),
      );
    const ordered = [{ store: origin, distanceKm: 0 }, ...neighbours];
    nearestCache.set(origin.store_id, ordered);
    return ordered;
  };

  return {
    findCountryByPath: (countryPath) =>
      countryByPath.get(countryPath.replace(/^\/+|\/+$/g, '').toLowerCase()),
    findStore: (countryCode, storeId) => {
      const store = storesById.get(storeId.trim().toUpperCase());
      return store?.countryCode === countryCode ? store : undefined;
    },
    findLocation: (countryCode, location) => {
      const countryStores = storesByCountry.get(countryCode) ?? [];
      const postalCode = normalizePostalCode(location);
      const origin = countryStores.find(
        (store) =>
          store.postal_code !== null && normalizePostalCode(store.postal_code) === postalCode,
      );
      if (origin !== undefined) {
        const { latitude, longitude } = origin;
        return { countryCode, latitude, longitude, origin, label: origin.postal_code ?? location };
      }
      const cityName = normalizeCityName(location);
      const cityStores = countryStores.filter(
        (store) => normalizeCityName(store.city) === cityName,
      );
      const [first] = cityStores;
      if (first === undefined) return undefined;
      const sum = (pick: (store: SimStore) => number): number =>
        cityStores.reduce((total, store) => total + pick(store), 0);
      return {
        countryCode,
        latitude: sum((store) => store.latitude) / cityStores.length,
        longitude: sum((store) => store.longitude) / cityStores.length,
        origin: undefined,
        label: first.city,
      };
    },
    listStoresNear: (location, limit) => {
      if (location.origin !== undefined) {
        return listAllByDistance(location.origin).slice(0, Math.max(1, limit));
      }
      return (storesByCountry.get(location.countryCode) ?? [])
        .map((store) => ({ store, distanceKm: measureDistanceKm(location, store) }))
        .sort(
          (a, b) => a.distanceKm - b.distanceKm || a.store.store_id.localeCompare(b.store.store_id),
        )
        .slice(0, Math.max(1, limit));
    },
    findAnyStore: (storeId) => storesById.get(storeId.trim().toUpperCase()),
    findModel: (countryCode, partNumber) => modelsByKey.get(`${countryCode}|${partNumber.trim()}`),
    listNearestStores: (origin, limit) => listAllByDistance(origin).slice(0, Math.max(1, limit)),
    getDistanceUnit: (countryCode) => getCountryStore(countryCode).distanceUnit,
  };
}

function normalizePostalCode(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

// "new  york", "NEW YORK" and "New York" are one city; accents and scripts are kept.
function normalizeCityName(value: string): string {
  return value.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}
