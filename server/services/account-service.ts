import type { Account, AccountUpdateValues } from '#shared/api/account.ts';
import { getPlan, isPaidPlan } from '#shared/domain/plans.ts';
import type { Executor } from '#server/db/database.ts';
import { updateUserAccount } from '#server/db/repositories/users-repository.ts';
import type { UserRow } from '#server/db/schema.ts';

/** The account answer for a user row. */
export function toAccount(user: UserRow): Account {
  const plan = getPlan(user.plan);
  return {
    email: user.email,
    phone_number: user.phone_number,
    enable_notifications: user.enable_notifications,
    plan: user.plan,
    capabilities: {
      text_notifications_allowed: plan.features.textNotifications,
      web_searches_allowed: isPaidPlan(user.plan),
      search_limit: plan.searches,
    },
  };
}

/** Saves the account form (values already validated by the schema). */
export async function saveAccount(
  db: Executor,
  user: UserRow,
  values: AccountUpdateValues,
): Promise<Account> {
  const updated = await updateUserAccount(db, user.id, values);
  return toAccount(updated);
}
