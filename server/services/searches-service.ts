import type { Kysely } from 'kysely';
import { ERROR_CODES } from '#shared/api/errors.ts';
import type { NewSearch, Search, SearchUpdate } from '#shared/api/searches.ts';
import { getPlan, isPaidPlan, PLANS, type Plan } from '#shared/domain/plans.ts';
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

/** "Better or Premium": the plans that include searches on the website. */
function listPaidPlanTitles(): string {
  const titles = PLANS.filter((plan) => isPaidPlan(plan.code)).map((plan) => plan.title);
  return titles.length < 2
    ? titles.join('')
    : `${titles.slice(0, -1).join(', ')} or ${titles.at(-1) ?? ''}`;
}

/**
 * Web access to searches is for paid plans (spec section 6). Every search read and write
 * checks this first, before the search is even looked up, so a Good-plan account gets the
 * same 403 for its own searches, someone else's and ones that do not exist.
 */
export function requireSearchAccess(user: UserRow): void {
  if (!isPaidPlan(user.plan)) {
    throw new AppError(
      403,
      ERROR_CODES.subscriptionRequired,
      `The ${getPlan(user.plan).title} plan has no searches on the web`,
      {
        reason: `Searches on the website need a ${listPaidPlanTitles()} plan. Upgrade on the Pricing page, or use the free search in the Shelfwatch app for Mac.`,
      },
    );
  }
}

/** The sentence of a refused create: the plan, its limit and the plans that allow more. */
function describeSearchLimit(plan: Plan): string {
  const allowance = `Your ${plan.title} plan allows ${plan.searches} search${plan.searches === 1 ? '' : 'es'}.`;
  const larger = PLANS.filter((candidate) => candidate.searches > plan.searches).map(
    (candidate) => candidate.title,
  );
  return larger.length === 0
    ? `${allowance} Delete a search you no longer need to add another.`
    : `${allowance} Upgrade to ${larger.join(' or ')} to add more, or delete a search you no longer need.`;
}

/** The signed-in user's searches, oldest first. */
export async function listUserSearches(db: Executor, user: UserRow): Promise<Search[]> {
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
    const plan = getPlan(locked.plan);
    const count = await countSearchesByUser(trx, locked.id);
    if (count >= plan.searches) {
      throw new AppError(
        403,
        ERROR_CODES.searchLimitReached,
        `${count} of ${plan.searches} searches of the ${plan.title} plan in use`,
        { reason: describeSearchLimit(plan) },
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
        ERROR_CODES.subscriptionRequired,
        `send_text_updates: not included in the ${getPlan(user.plan).title} plan`,
        {
          reason: 'Text notifications are only allowed for Premium subscribers.',
          field: 'send_text_updates',
        },
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
