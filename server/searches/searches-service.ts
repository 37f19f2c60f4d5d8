import type { Kysely } from 'kysely';
import { ERROR_CODES } from '#shared/api/errors.ts';
import type { NewSearch, Search, SearchUpdate } from '#shared/api/searches.ts';
import { getPlan, isPaidPlan, PLANS, type Plan } from '#shared/domain/plans.ts';
import { findDefaultMaxDistanceMiles } from '#shared/domain/alert-distance.ts';
import { DEFAULT_ALERT_CADENCE_MINUTES } from '#shared/watch/alert-cadence.ts';
import type { Executor } from '#server/db/database.ts';
import { runRetryingTransaction } from '#server/db/retrying-transaction.ts';
import { lockSearchesForChange } from '#server/db/locks.ts';
import {
  announceSearchChange,
  countSearchesByUser,
  deleteOwnedSearch,
  findOwnedSearch,
  insertSearch,
  replacePreferredParts,
  updateOwnedSearch,
} from '#server/db/repositories/searches-repository.ts';
import { findUserById } from '#server/db/repositories/users-repository.ts';
import type { Database, SearchRow, UserRow } from '#server/db/schema.ts';
import { reconcilePausedSearches } from '#server/accounts/plan-change.ts';
import { AppError, notFound } from '#server/base/app-error.ts';
import { composeCardSearch, requireSearchCard } from './search-cards.ts';
import { requireCatalogEntries, resolvePreferredParts } from './search-choices.ts';

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

/** Texts go to the account's phone number: without one, turning them on is a 400. */
function requirePhoneNumberForTexts(user: UserRow): void {
  if ((user.phone_number ?? '').trim() === '') {
    throw new AppError(
      400,
      ERROR_CODES.invalidInput,
      'send_text_updates: the account has no phone number',
      {
        reason: 'Add a phone number in My Account before turning on text updates.',
        field: 'send_text_updates',
      },
    );
  }
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
  const search = await runRetryingTransaction(db, async (trx) => {
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
    const { countryCode } = await requireCatalogEntries(trx, input.product_type, input.store_id, {
      isNewChoice: true,
    });
    const parts = await resolvePreferredParts(
      trx,
      input.product_type,
      countryCode,
      input.product_models ?? [],
      false,
    );
    if (input.send_text_updates === true && getPlan(locked.plan).features.textNotifications) {
      requirePhoneNumberForTexts(locked);
    }
    const row = await insertSearch(trx, {
      user_id: locked.id,
      product_type: input.product_type,
      store_id: input.store_id,
      include_nearby_store_results: input.include_nearby_store_results ?? true,
      show_results_only_for_preferred_models: input.show_results_only_for_preferred_models ?? false,
      send_text_updates:
        (input.send_text_updates ?? false) && getPlan(locked.plan).features.textNotifications,
      send_email_updates: input.send_email_updates ?? true,
      // Near means near (issue 42): without a choice, the country's default (30 mi / 50 km).
      max_distance_miles:
        input.max_distance_miles === undefined
          ? findDefaultMaxDistanceMiles(countryCode)
          : input.max_distance_miles,
      alert_cadence_minutes: input.alert_cadence_minutes ?? DEFAULT_ALERT_CADENCE_MINUTES,
    });
    await replacePreferredParts(trx, row.id, parts);
    return composeCardSearch(await requireSearchCard(trx, locked.id, row.id));
  });
  announceSearchChange({ userId: user.id });
  return search;
}

/** Replaces a search's settings. */
export async function updateUserSearch(
  db: Kysely<Database>,
  user: UserRow,
  searchId: string,
  input: SearchUpdate & { product_type: string; store_id: string },
): Promise<Search> {
  const search = await runRetryingTransaction(db, async (trx) => {
    // Another edit of this search in flight finishes first, so `existing` is what this one changes.
    await lockSearchesForChange(trx, [searchId]);
    const existing = await requireOwnedSearch(trx, user, searchId);
    // After a product or store change the client may still send the old models: drop them
    // rather than refuse, since the old choice cannot apply to the new product.
    const isCatalogChange =
      existing.product_type !== input.product_type || existing.store_id !== input.store_id;
    // A search of a type since retired in its country keeps working and stays editable; only
    // moving a search onto such a type or store is refused.
    const { countryCode } = await requireCatalogEntries(trx, input.product_type, input.store_id, {
      isNewChoice: isCatalogChange,
      isNewStore: existing.store_id !== input.store_id,
    });
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
    // Only turning texts on is refused: a search that already texts stays editable.
    if (input.send_text_updates && !existing.send_text_updates) {
      requirePhoneNumberForTexts(user);
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
      alert_cadence_minutes: input.alert_cadence_minutes ?? existing.alert_cadence_minutes,
    });
    if (row === undefined) {
      throw notFound('Search');
    }
    await replacePreferredParts(trx, row.id, parts);
    return composeCardSearch(await requireSearchCard(trx, user.id, row.id));
  });
  announceSearchChange({ userId: user.id });
  return search;
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
  // A freed place resumes the oldest paused search; the plan is read afresh, not from the cache.
  const current = await findUserById(db, user.id);
  if (current !== undefined) {
    await reconcilePausedSearches(db, user.id, getPlan(current.plan).searches);
  }
  announceSearchChange({ userId: user.id });
}
