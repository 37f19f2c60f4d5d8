import { getPlan } from '#shared/domain/plans.ts';
import type { SearchRow, UserRow } from '#server/db/schema.ts';
import type { AlertChannel } from './alert-types.ts';

/** Why an alert is not sent after all; stored as the row's last_error. */
export type SuppressionReason =
  | 'user_deleted'
  | 'notifications_disabled'
  | 'search_deleted'
  | 'search_paused'
  | 'email_updates_off'
  | 'text_updates_off'
  | 'plan_excludes_email'
  | 'plan_excludes_text'
  | 'no_email_address'
  | 'no_phone_number'
  | 'text_opted_out'
  | 'no_push_subscription';

/** Send-time verdict: settings may have changed since the alert was enqueued. */
export type Eligibility =
  | { isAllowed: true; user: UserRow; search: SearchRow }
  | { isAllowed: false; reason: SuppressionReason };

/**
 * Re-checks the account switch, the search's channel flag, the plan's channel rights and
 * the recipient's address, in that order, so the reason names the broadest cause.
 * Push has no per-search flag: subscribing in the browser is the opt-in.
 */
export function checkEligibility(
  channel: AlertChannel,
  user: UserRow | undefined,
  search: SearchRow | undefined,
): Eligibility {
  if (user === undefined) {
    return { isAllowed: false, reason: 'user_deleted' };
  }
  if (!user.enable_notifications) {
    return { isAllowed: false, reason: 'notifications_disabled' };
  }
  if (search === undefined) {
    return { isAllowed: false, reason: 'search_deleted' };
  }
  if (search.paused_at !== null) {
    return { isAllowed: false, reason: 'search_paused' };
  }
  const features = getPlan(user.plan).features;
  if (channel === 'email') {
    if (!search.send_email_updates) {
      return { isAllowed: false, reason: 'email_updates_off' };
    }
    if (!features.emailNotifications) {
      return { isAllowed: false, reason: 'plan_excludes_email' };
    }
    if (user.email === null || user.email === '') {
      return { isAllowed: false, reason: 'no_email_address' };
    }
  }
  if (channel === 'text') {
    if (!search.send_text_updates) {
      return { isAllowed: false, reason: 'text_updates_off' };
    }
    if (!features.textNotifications) {
      return { isAllowed: false, reason: 'plan_excludes_text' };
    }
    if (user.phone_number === null || user.phone_number === '') {
      return { isAllowed: false, reason: 'no_phone_number' };
    }
    if (user.is_text_opted_out) {
      return { isAllowed: false, reason: 'text_opted_out' };
    }
  }
  return { isAllowed: true, user, search };
}
