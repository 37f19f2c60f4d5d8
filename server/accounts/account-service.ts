import type { Account, AccountUpdateValues, QuietHoursSettings } from '#shared/api/account.ts';
import { getPlan, isPaidPlan } from '#shared/domain/plans.ts';
import type { Executor } from '#server/db/database.ts';
import { updateQuietHours } from '#server/db/repositories/quiet-hours-repository.ts';
import { updateUserAccount, updateUserTimeZone } from '#server/db/repositories/users-repository.ts';
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
    quiet_hours: {
      enabled: user.quiet_hours_enabled,
      start: user.quiet_hours_start,
      end: user.quiet_hours_end,
      time_zone: user.quiet_hours_time_zone,
      always_for_preferred_at_my_store: user.quiet_hours_preferred_at_store,
    },
    time_zone: user.time_zone,
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

/** Saves the account's quiet hours (values already validated by the schema). */
export async function saveQuietHours(
  db: Executor,
  user: UserRow,
  values: QuietHoursSettings,
): Promise<Account> {
  const updated = await updateQuietHours(db, user.id, {
    quiet_hours_enabled: values.enabled,
    quiet_hours_start: values.start,
    quiet_hours_end: values.end,
    quiet_hours_time_zone: values.time_zone,
    quiet_hours_preferred_at_store: values.always_for_preferred_at_my_store,
  });
  return toAccount(updated);
}

/** Saves the zone alert times are written in (value already validated by the schema). */
export async function saveTimeZone(
  db: Executor,
  user: UserRow,
  timeZone: string,
): Promise<Account> {
  return toAccount(await updateUserTimeZone(db, user.id, timeZone));
}
