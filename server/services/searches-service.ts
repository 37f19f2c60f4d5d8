import type { Kysely } from 'kysely';
import { ERROR_REASONS } from '#shared/api/errors.ts';
import type { NewSearch, Search, SearchUpdate } from '#shared/api/searches.ts';
import { getPlan, isPaidPlan } from '#shared/domain/plans.ts';
import type { Executor } from '#server/db/database.ts';
import {
  findProductType,
  findStoreWithCountry,
  listProductModels,
} from '#server/db/repositories/catalog-repository.ts';
import {
  countSearchesByUser,
  deleteOwnedSearch,
  findOwnedSearch,
  insertSearch,
  listPreferredParts,
  listSearchesByUser,
  replacePreferredParts,
  updateOwnedSearch,
} from '#server/db/repositories/searches-repository.ts';
import { findUserById } from '#server/db/repositories/users-repository.ts';
import type { Database, SearchRow, UserRow } from '#server/db/schema.ts';
import { AppError, invalidInput, notFound } from './app-error.ts';
import {
  computeSearchInventory,
  countStoresWithInventory,
  loadSearchCatalog,
} from './inventory-service.ts';

/** The signed-in user's searches; the website's list is for paid plans (spec section 6). */
export async function listUserSearches(db: Executor, user: UserRow): Promise<Search[]> {
  if (!isPaidPlan(user.plan)) {
    throw new AppError(
      403,
      ERROR_REASONS.subscriptionRequired,
      'Searches on the web need a Better or Premium subscription',
    );
  }
  const rows = await listSearchesByUser(db, user.id);
  const preferred = await listPreferredParts(
    db,
    rows.map((row) => row.id),
  );
  return await Promise.all(
    rows.map((row) => composeSearch(db, row, preferred.get(row.id) ?? new Set())),
  );
}

/** One of the user's searches; anyone else's is a 404. */
export async function getUserSearch(
  db: Executor,
  user: UserRow,
  searchId: string,
): Promise<Search> {
  const row = await requireOwnedSearch(db, user, searchId);
  const preferred = await listPreferredParts(db, [row.id]);
  return await composeSearch(db, row, preferred.get(row.id) ?? new Set());
}

/** The user's search row or a 404. */
export async function requireOwnedSearch(
  db: Executor,
  user: UserRow,
  searchId: string,
): Promise<SearchRow> {
  const row = await findOwnedSearch(db, user.id, searchId);
  if (row === undefined) {
    throw notFound('Search');
  }
  return row;
}

/**
 * Creates a search within the plan's limit. The user row is locked for the count so two
 * concurrent creates cannot both pass the limit.
 */
export async function createUserSearch(
  db: Kysely<Database>,
  user: UserRow,
  input: NewSearch & { product_type: string; store_id: string },
): Promise<Search> {
  return await db.transaction().execute(async (trx) => {
    const locked = await findUserById(trx, user.id, { isLocked: true });
    if (locked === undefined) {
      throw notFound('Account');
    }
    const limit = getPlan(locked.plan).searches;
    if ((await countSearchesByUser(trx, locked.id)) >= limit) {
      throw new AppError(
        403,
        ERROR_REASONS.searchLimitReached,
        `Your ${getPlan(locked.plan).title} plan allows ${limit} search${limit === 1 ? '' : 'es'}; delete one or upgrade to add more`,
      );
    }
    const { countryCode } = await requireCatalogEntries(trx, input.product_type, input.store_id);
    const parts = await resolvePreferredParts(
      trx,
      input.product_type,
      countryCode,
      input.product_models ?? [],
      false,
    );
    const row = await insertSearch(trx, {
      user_id: locked.id,
      product_type: input.product_type,
      store_id: input.store_id,
      include_nearby_store_results: input.include_nearby_store_results ?? true,
      show_results_only_for_preferred_models: input.show_results_only_for_preferred_models ?? false,
      send_text_updates:
        (input.send_text_updates ?? false) && getPlan(locked.plan).features.textNotifications,
      send_email_updates: input.send_email_updates ?? true,
      max_distance_miles: input.max_distance_miles ?? null,
    });
    await replacePreferredParts(trx, row.id, parts);
    return await composeSearch(trx, row, new Set(parts));
  });
}

/** Replaces a search's settings. */
export async function updateUserSearch(
  db: Kysely<Database>,
  user: UserRow,
  searchId: string,
  input: SearchUpdate & { product_type: string; store_id: string },
): Promise<Search> {
  return await db.transaction().execute(async (trx) => {
    const existing = await requireOwnedSearch(trx, user, searchId);
    const { countryCode } = await requireCatalogEntries(trx, input.product_type, input.store_id);
    // After a product or store change the client may still send the old models: drop them
    // rather than refuse, since the old choice cannot apply to the new product.
    const isCatalogChange =
      existing.product_type !== input.product_type || existing.store_id !== input.store_id;
    const parts = await resolvePreferredParts(
      trx,
      input.product_type,
      countryCode,
      input.product_models,
      isCatalogChange,
    );
    if (input.send_text_updates && !getPlan(user.plan).features.textNotifications) {
      throw new AppError(
        403,
        ERROR_REASONS.subscriptionRequired,
        'Text notifications are only allowed for Premium subscribers.',
      );
    }
    const row = await updateOwnedSearch(trx, user.id, searchId, {
      product_type: input.product_type,
      store_id: input.store_id,
      include_nearby_store_results: input.include_nearby_store_results,
      show_results_only_for_preferred_models: input.show_results_only_for_preferred_models,
      send_text_updates: input.send_text_updates,
      send_email_updates: input.send_email_updates,
      max_distance_miles:
        input.max_distance_miles === undefined
          ? existing.max_distance_miles
          : input.max_distance_miles,
    });
    if (row === undefined) {
      throw notFound('Search');
    }
    await replacePreferredParts(trx, row.id, parts);
    return await composeSearch(trx, row, new Set(parts));
  });
}

/** Deletes one of the user's searches. */
export async function deleteUserSearch(
  db: Executor,
  user: UserRow,
  searchId: string,
): Promise<void> {
  if (!(await deleteOwnedSearch(db, user.id, searchId))) {
    throw notFound('Search');
  }
}

async function requireCatalogEntries(
  db: Executor,
  productType: string,
  storeId: string,
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
  return { countryCode: store.country_code };
}

async function resolvePreferredParts(
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

/** Builds the API's view of a search: names, models with preferred flags, inventory count. */
async function composeSearch(
  db: Executor,
  row: SearchRow,
  preferred: ReadonlySet<string>,
): Promise<Search> {
  const [product, catalog] = await Promise.all([
    findProductType(db, row.product_type),
    loadSearchCatalog(db, row),
  ]);
  const { home: store, models } = catalog;
  const inventory = await computeSearchInventory(db, row, preferred, catalog);
  return {
    search_id: row.id,
    id: row.id,
    product_type: row.product_type,
    product_name: product?.product_name ?? row.product_type,
    store_id: row.store_id,
    store_name: store?.store_name ?? row.store_id,
    store_city: store?.city ?? '',
    store_state: store?.state_code ?? null,
    include_nearby_store_results: row.include_nearby_store_results,
    show_results_only_for_preferred_models: row.show_results_only_for_preferred_models,
    send_text_updates: row.send_text_updates,
    send_email_updates: row.send_email_updates,
    max_distance_miles: row.max_distance_miles,
    product_models: models.map((model) => ({
      part_number: model.part_number,
      display_name: model.display_name,
      is_preferred: preferred.has(model.part_number),
    })),
    stores_with_inventory: countStoresWithInventory(inventory),
  };
}
