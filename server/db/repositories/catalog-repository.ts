import { sql, type Selectable } from 'kysely';
import type { Executor } from '../database.ts';
import type {
  CountriesTable,
  NewStore,
  ProductModelsTable,
  ProductTypesTable,
  StoreRow,
} from '../schema.ts';

/** A country row. */
export type CountryRow = Selectable<CountriesTable>;
/** A product type row. */
export type ProductTypeRow = Selectable<ProductTypesTable>;
/** A product model row. */
export type ProductModelRow = Selectable<ProductModelsTable>;

/** Every product type, in catalog order. */
export async function listProductTypes(db: Executor): Promise<ProductTypeRow[]> {
  return await db
    .selectFrom('product_types')
    .selectAll()
    .orderBy('sort_order')
    .orderBy('product_id')
    .execute();
}

/** One product type, or undefined. */
export async function findProductType(
  db: Executor,
  productId: string,
): Promise<ProductTypeRow | undefined> {
  return await db
    .selectFrom('product_types')
    .selectAll()
    .where('product_id', '=', productId)
    .executeTakeFirst();
}

/** Every store, by country then name. */
export async function listStores(db: Executor): Promise<StoreRow[]> {
  return await db
    .selectFrom('stores')
    .selectAll()
    .orderBy('country_locale')
    .orderBy('store_name')
    .execute();
}

/** Where a store is, as search cards show it: its name and city, state, and country code. */
export type StorePlaceRow = {
  store_id: string;
  store_name: string;
  store_city: string;
  store_state: string | null;
  /** Null when the store's locale names no country of the catalog. */
  country_code: string | null;
};

/**
 * A store's name as search cards show it: "Apple Fifth Avenue (closed)" once the directory no
 * longer lists it, so a search of a closed store says so wherever its card goes.
 */
export const closedStoreName = sql<string>`case when st.closed_on is null then st.store_name else st.store_name || ' (closed)' end`;

/** Every store's place (see StorePlaceRow). */
export async function listStorePlaces(db: Executor): Promise<StorePlaceRow[]> {
  return await db
    .selectFrom('stores as st')
    .leftJoin('countries as c', 'c.locale_code', 'st.country_locale')
    .select([
      'st.store_id',
      closedStoreName.as('store_name'),
      'st.city as store_city',
      'st.state_code as store_state',
      'c.country_code',
    ])
    .execute();
}

/** One store with its country's code, or undefined. */
export async function findStoreWithCountry(
  db: Executor,
  storeId: string,
): Promise<(StoreRow & { country_code: string }) | undefined> {
  return await db
    .selectFrom('stores')
    .innerJoin('countries', 'countries.locale_code', 'stores.country_locale')
    .selectAll('stores')
    .select('countries.country_code')
    .where('stores.store_id', '=', storeId)
    .executeTakeFirst();
}

/** Stores by id. */
export async function findStoresByIds(
  db: Executor,
  storeIds: readonly string[],
): Promise<StoreRow[]> {
  if (storeIds.length === 0) {
    return [];
  }
  return await db.selectFrom('stores').selectAll().where('store_id', 'in', storeIds).execute();
}

/** Every country, by display name. */
export async function listCountries(db: Executor): Promise<CountryRow[]> {
  return await db.selectFrom('countries').selectAll().orderBy('display_name').execute();
}

/** One country by its two-letter code, or undefined. */
export async function findCountry(
  db: Executor,
  countryCode: string,
): Promise<CountryRow | undefined> {
  return await db
    .selectFrom('countries')
    .selectAll()
    .where('country_code', '=', countryCode)
    .executeTakeFirst();
}

/** Models of a product type in a country (retired ones too), in a stable order. */
export async function listProductModels(
  db: Executor,
  productId: string,
  countryCode: string,
): Promise<ProductModelRow[]> {
  return await db
    .selectFrom('product_models')
    .selectAll()
    .where('product_id', '=', productId)
    .where('country_code', '=', countryCode)
    .orderBy('display_name')
    .execute();
}

/** Every product type's models in every country (retired ones too), grouped in a stable order. */
export async function listAllProductModels(
  db: Executor,
): Promise<
  Pick<ProductModelRow, 'product_id' | 'country_code' | 'part_number' | 'display_name'>[]
> {
  return await db
    .selectFrom('product_models')
    .select(['product_id', 'country_code', 'part_number', 'display_name'])
    .orderBy('product_id')
    .orderBy('country_code')
    .orderBy('display_name')
    .orderBy('part_number')
    .execute();
}

/** Inserts or updates countries by code. */
export async function upsertCountries(
  db: Executor,
  countries: readonly CountryRow[],
): Promise<void> {
  if (countries.length === 0) {
    return;
  }
  await db
    .insertInto('countries')
    .values([...countries])
    .onConflict((conflict) =>
      conflict.column('country_code').doUpdateSet((eb) => ({
        locale_code: eb.ref('excluded.locale_code'),
        display_name: eb.ref('excluded.display_name'),
      })),
    )
    .execute();
}

/**
 * Inserts stores an answer taught; a store filed meanwhile (by the directory or another
 * answer) is left as it is. Answers the ids inserted.
 */
export async function insertLearnedStores(
  db: Executor,
  stores: readonly NewStore[],
): Promise<string[]> {
  if (stores.length === 0) return [];
  const rows = await db
    .insertInto('stores')
    .values(stores.map((store) => ({ ...store, is_learned: true, updated_at: new Date() })))
    .onConflict((conflict) => conflict.column('store_id').doNothing())
    .returning('store_id')
    .execute();
  return rows.map((row) => row.store_id);
}

/**
 * Inserts or updates stores by id; coordinates already known are kept when the input has none.
 * A store listed here is no longer "only known from answers" unless the row says it still is.
 */
export async function upsertStores(db: Executor, stores: readonly NewStore[]): Promise<number> {
  let written = 0;
  // Chunked so a 500-store directory stays well under PostgreSQL's parameter limit.
  for (let start = 0; start < stores.length; start += 200) {
    const chunk = stores
      .slice(start, start + 200)
      .map((store) => ({
        ...store,
        is_learned: store.is_learned ?? false,
        updated_at: new Date(),
      }));
    const result = await db
      .insertInto('stores')
      .values(chunk)
      .onConflict((conflict) =>
        conflict.column('store_id').doUpdateSet((eb) => ({
          store_name: eb.ref('excluded.store_name'),
          country_locale: eb.ref('excluded.country_locale'),
          city: eb.ref('excluded.city'),
          state_code: eb.ref('excluded.state_code'),
          state_name: eb.ref('excluded.state_name'),
          address1: eb.ref('excluded.address1'),
          address2: eb.ref('excluded.address2'),
          postal_code: eb.ref('excluded.postal_code'),
          telephone: eb.ref('excluded.telephone'),
          store_slug: eb.ref('excluded.store_slug'),
          latitude: eb.fn.coalesce('excluded.latitude', 'stores.latitude'),
          longitude: eb.fn.coalesce('excluded.longitude', 'stores.longitude'),
          time_zone: eb.fn.coalesce('excluded.time_zone', 'stores.time_zone'),
          is_learned: eb.ref('excluded.is_learned'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .executeTakeFirst();
    written += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return written;
}
