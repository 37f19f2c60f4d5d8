import type { Transaction } from 'kysely';
import { getPlan, type PlanCode } from '#shared/domain/plans.ts';
import type { Db, Executor } from '#server/db/database.ts';
import { announceSearchChange } from '#server/db/repositories/searches-repository.ts';
import { findUserById, updateUserPlan } from '#server/db/repositories/users-repository.ts';
import type { Database } from '#server/db/schema.ts';

/** What a plan change did to the user's searches. */
export type PlanChangeResult = {
  previousPlan: PlanCode;
  plan: PlanCode;
  /** Searches paused now because the plan allows fewer (the newest ones). */
  pausedSearchIds: string[];
  /** Paused searches resumed now because the plan allows more (the oldest ones). */
  resumedSearchIds: string[];
  /** Searches whose text alerts were switched off because the plan has none. */
  textOffSearchIds: string[];
};

/**
 * Makes exactly the user's `limit` oldest searches active and pauses the rest: a downgrade
 * pauses the newest (kept, not polled, no alerts), a higher limit resumes the oldest paused.
 */
export async function reconcilePausedSearches(
  db: Executor,
  userId: string,
  limit: number,
  now: Date = new Date(),
): Promise<{ pausedSearchIds: string[]; resumedSearchIds: string[] }> {
  const searches = await db
    .selectFrom('searches')
    .select(['id', 'paused_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const resumedSearchIds = searches
    .slice(0, limit)
    .filter((search) => search.paused_at !== null)
    .map((search) => search.id);
  const pausedSearchIds = searches
    .slice(limit)
    .filter((search) => search.paused_at === null)
    .map((search) => search.id);
  if (resumedSearchIds.length > 0) {
    await db
      .updateTable('searches')
      .set({ paused_at: null, updated_at: now })
      .where('id', 'in', resumedSearchIds)
      .execute();
  }
  if (pausedSearchIds.length > 0) {
    await db
      .updateTable('searches')
      .set({ paused_at: now, updated_at: now })
      .where('id', 'in', pausedSearchIds)
      .execute();
  }
  return { pausedSearchIds, resumedSearchIds };
}

/**
 * Puts a user on `plan` and brings their searches in line with it: over the plan's limit the
 * newest are paused, under it paused ones resume oldest first, and without text alerts in the
 * plan every search's text switch is turned off (so text stops when Premium ends, and the
 * search form never sends a switch the plan refuses). Billing webhooks and `set-plan` both
 * call this. Runs in `trx` when given, else in a transaction of its own; in-memory copies of
 * the user and their searches are dropped either way. Undefined when the user does not exist.
 */
export async function applyPlanChange(
  db: Db,
  userId: string,
  plan: PlanCode,
  trx?: Transaction<Database>,
): Promise<PlanChangeResult | undefined> {
  const change = async (executor: Transaction<Database>): Promise<PlanChangeResult | undefined> => {
    const user = await findUserById(executor, userId, { isLocked: true });
    if (user === undefined) {
      return undefined;
    }
    if (user.plan !== plan) {
      await updateUserPlan(executor, userId, plan);
    }
    const rules = getPlan(plan);
    const now = new Date();
    const reconciled = await reconcilePausedSearches(executor, userId, rules.searches, now);
    const textOff = rules.features.textNotifications
      ? []
      : await executor
          .updateTable('searches')
          .set({ send_text_updates: false, updated_at: now })
          .where('user_id', '=', userId)
          .where('send_text_updates', '=', true)
          .returning('id')
          .execute();
    return {
      previousPlan: user.plan,
      plan,
      ...reconciled,
      textOffSearchIds: textOff.map((row) => row.id),
    };
  };
  const result = trx === undefined ? await db.transaction().execute(change) : await change(trx);
  announceSearchChange({ userId });
  return result;
}
