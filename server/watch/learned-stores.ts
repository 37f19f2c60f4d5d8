import type { Executor } from '#server/db/database.ts';
import type { NewStore } from '#server/db/schema.ts';
import { findCountry, insertLearnedStores } from '#server/db/repositories/catalog-repository.ts';
import type { StoreAvailability } from '#shared/upstream/index.ts';

// Stores an answer lists that the catalog lacks. Apple's directory misses some (Thailand's
// store-list answers 404; UAE, Thailand and Hong Kong answers list stores it lacks), while a
// pickup answer carries everything needed to file one: number, name, city, coordinates,
// zone and address (../shared/reference/apple/README.md, "Stores outside the directory").
// Filed, a store gets its snapshots like any other and can be searched once its country has
// models.

/**
 * The catalog row for a store an answer of `countryCode` listed, or null when it cannot be
 * filed: it names another country, or lacks the city the catalog needs.
 */
export function describeLearnedStore(
  store: StoreAvailability,
  countryCode: string,
  localeCode: string,
): NewStore | null {
  if (store.country !== null && store.country.toUpperCase() !== countryCode) return null;
  if (store.city === null) return null;
  const facts = store.facts;
  return {
    store_id: store.storeNumber,
    store_name: store.name,
    country_locale: localeCode,
    city: store.city,
    state_code: store.state,
    state_name: null,
    address1: facts?.street ?? store.name,
    address2: facts?.street2 ?? null,
    postal_code: facts?.postalCode ?? null,
    telephone: facts?.phone ?? null,
    store_slug: null,
    latitude: store.latitude,
    longitude: store.longitude,
    time_zone: facts?.timezone ?? null,
  };
}

/** Files the listed stores the catalog lacks (see describeLearnedStore); answers the ids filed. */
export async function fileLearnedStores(
  db: Executor,
  countryCode: string,
  stores: readonly StoreAvailability[],
): Promise<string[]> {
  if (stores.length === 0) return [];
  const country = await findCountry(db, countryCode);
  if (country === undefined) return [];
  const rows = stores.flatMap((store) => {
    const row = describeLearnedStore(store, countryCode, country.locale_code);
    return row === null ? [] : [row];
  });
  return await insertLearnedStores(db, rows);
}
