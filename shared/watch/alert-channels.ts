import { getPlan, type PlanCode } from '#shared/domain/plans.ts';
import type { AlertChannelName } from './types.ts';

/** The account and search facts that decide which channels an alert goes out on. */
export type AlertRecipient = {
  plan: PlanCode;
  isNotificationsEnabled: boolean;
  hasEmail: boolean;
  hasPhone: boolean;
  isTextOptedOut: boolean;
  hasPushSubscription: boolean;
  isEmailWanted: boolean;
  isTextWanted: boolean;
};

/**
 * Channels an alert is written for: nothing when the account switch is off; email when the
 * search asks for it and the plan includes it (Better, Premium); text likewise (Premium)
 * unless the number replied STOP; web push whenever the user subscribed a browser, since
 * push is part of the site every plan uses.
 */
export function selectAlertChannels(recipient: AlertRecipient): AlertChannelName[] {
  if (!recipient.isNotificationsEnabled) return [];
  const features = getPlan(recipient.plan).features;
  const channels: AlertChannelName[] = [];
  if (recipient.isEmailWanted && recipient.hasEmail && features.emailNotifications)
    channels.push('email');
  if (
    recipient.isTextWanted &&
    recipient.hasPhone &&
    !recipient.isTextOptedOut &&
    features.textNotifications
  ) {
    channels.push('text');
  }
  if (recipient.hasPushSubscription) channels.push('push');
  return channels;
}
