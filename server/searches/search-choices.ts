import { ERROR_CODES } from '#shared/api/errors.ts';
import { isWatchKitType, WATCH_KIT_NOTE } from '#shared/catalog/watch-kits.ts';
import type { Executor } from '#server/db/database.ts';
import { listProductTypeCountries } from '#server/db/repositories/catalog-changes-repository.ts';
import {
  findCountry,
  findProductType,
  findStoreWithCountry,
  listProductModels,
} from '#server/db/repositories/catalog-repository.ts';
import { AppError, invalidInput } from '#server/base/app-error.ts';

// A search's product, store and models checked against the catalog, for creates and edits.

/**
 * The product type and store of a search, or a 400 naming the unknown one; a new choice of a
 * type not sold in the store's country, or of a closed store, is refused too. Answers the store's country.
 */
export async function requireCatalogEntries(
  db: Executor,
  productType: string,
  storeId: string,
  options: {
    isNewChoice: boolean;
    /** The store is newly chosen (a create, or an edit moving the search); isNewChoice if unset. */
    isNewStore?: boolean;
  },
): Promise<{ countryCode: string }> {
  const [product, store] = await Promise.all([
    findProductType(db, productType),
    findStoreWithCountry(db, storeId),
  ]);
  if (product === undefined) {
    throw invalidInput('product_type', `unknown product type "${productType}"`);
  }
  if (store === undefined) {
    throw invalidInput('store_id', `unknown store "${storeId}"`);
  }
  // A closed store keeps its searches (and their edits) but takes no new one.
  if ((options.isNewStore ?? options.isNewChoice) && store.closed_on !== null) {
    const field = 'store_id';
    const reason = `${store.store_name} closed on ${store.closed_on}: Apple no longer lists it. Please choose another store.`;
    throw new AppError(400, ERROR_CODES.invalidInput, `${field}: ${reason}`, { field, reason });
  }
  if (options.isNewChoice) {
    if (isWatchKitType(product.product_id, product.family)) {
      const field = 'product_type';
      throw new AppError(400, ERROR_CODES.invalidInput, `${field}: ${WATCH_KIT_NOTE}`, {
        field,
        reason: WATCH_KIT_NOTE,
      });
    }
    // A type on sale elsewhere is refused where it is not: retired in that country, or never
    // sold there (no models to watch). A type sold nowhere any more is still accepted, as it
    // was before retirement was per country: the demo account and older clients make such
    // searches, whose pages then say "no longer sold"; the pickers never offer one.
    const soldIn = await listProductTypeCountries(db, productType);
    if (soldIn.length > 0 && !soldIn.includes(store.country_code)) {
      throw await describeNotSoldThere(db, product, store.country_code);
    }
  }
  return { countryCode: store.country_code };
}

/**
 * The 400 for a type not sold in the store's country: retired there, or never in the catalog
 * for that country, said in words the create dialog shows as they are.
 */
async function describeNotSoldThere(
  db: Executor,
  product: { product_id: string; product_name: string },
  countryCode: string,
): Promise<AppError> {
  const [country, models] = await Promise.all([
    findCountry(db, countryCode),
    listProductModels(db, product.product_id, countryCode),
  ]);
  const place = country?.display_name ?? countryCode;
  const detail =
    models.length > 0
      ? `${product.product_name} is no longer sold in this store's country (${place})`
      : `${product.product_name} is not sold in this store's country (${place})`;
  return new AppError(400, ERROR_CODES.invalidInput, `product_type: ${detail}`, {
    field: 'product_type',
    reason: `${detail}. Please choose another product, or a store in a country where it is sold.`,
  });
}

/**
 * The part numbers marked preferred among `models`, or a 400 for one that is not a model of the
 * product in the country; `isDroppingUnknown` leaves those out instead (after a product change).
 */
export async function resolvePreferredParts(
  db: Executor,
  productType: string,
  countryCode: string,
  models: readonly { part_number: string; is_preferred: boolean }[],
  isDroppingUnknown: boolean,
): Promise<string[]> {
  const known = new Set(
    (await listProductModels(db, productType, countryCode)).map((m) => m.part_number),
  );
  const preferred: string[] = [];
  for (const [index, model] of models.entries()) {
    if (!known.has(model.part_number)) {
      if (isDroppingUnknown) {
        continue;
      }
      throw invalidInput(
        `product_models.${index}.part_number`,
        `"${model.part_number}" is not a model of ${productType} in ${countryCode}`,
      );
    }
    if (model.is_preferred && !preferred.includes(model.part_number)) {
      preferred.push(model.part_number);
    }
  }
  return preferred;
}
