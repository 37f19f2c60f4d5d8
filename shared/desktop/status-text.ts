import { formatLastChecked } from '#shared/domain/last-checked.ts';
import type { DesktopWatchStatus } from './local-search.ts';

/** The watch loop's status in words, as the tray and My Searches in the app show it. */
export type WatchStatusText = {
  /** "Last checked 2 minutes ago", or "Not checked yet". */
  lastCheck: string;
  /** "Next check in 3 minutes", "Checking now...", "Checks are paused", or null with no searches. */
  nextCheck: string | null;
  /** "Checks are failing: ..." while they fail, else null. */
  failure: string | null;
  /** Why notifications are not showing and how to fix it, else null. */
  notificationProblem: string | null;
};

/** Where a Mac user turns an app's notifications on. */
const NOTIFICATION_SETTINGS_PLACE = 'System Settings > Notifications > Shelfwatch';

/** "in 3 minutes" / "in less than a minute" for a future ISO time. */
export function formatTimeUntil(iso: string, now: Date): string {
  const minutes = Math.ceil((Date.parse(iso) - now.getTime()) / 60_000);
  if (!Number.isFinite(minutes) || minutes <= 1) return 'in less than a minute';
  return `in ${minutes} minutes`;
}

/** Puts the status into the words the app shows. */
export function describeWatchStatus(status: DesktopWatchStatus, now: Date): WatchStatusText {
  const lastCheck = formatLastChecked(status.last_check_at, now) ?? 'Not checked yet';
  let nextCheck: string | null = null;
  if (status.is_waiting_for_network === true) nextCheck = 'Waiting for the network...';
  else if (status.state === 'paused') nextCheck = 'Checks are paused';
  else if (status.state === 'checking') nextCheck = 'Checking now...';
  else if (status.next_check_at !== null)
    nextCheck = `Next check ${formatTimeUntil(status.next_check_at, now)}`;
  const failure = status.is_failing
    ? `Checks are failing: ${status.failure_message ?? 'the stores could not be reached'}`
    : null;
  const problem = status.notification_problem ?? null;
  const notificationProblem =
    problem === null
      ? null
      : `Notifications can't be shown (${problem}). Allow them in ${NOTIFICATION_SETTINGS_PLACE}.`;
  return { lastCheck, nextCheck, failure, notificationProblem };
}
