import type { MenuItemConstructorOptions } from 'electron';
import type { DesktopWatchStatus } from '#shared/desktop/local-search.ts';

// The menu-bar item's menu, built from the watch status each time it changes. Pure: the
// caller turns the template into a Menu (Menu.buildFromTemplate) and sets title and tooltip.

/** What the tray's items do. */
export type TrayActions = {
  open: () => void;
  checkNow: () => void;
  togglePause: () => void;
  quit: () => void;
};

/** Extra rows, e.g. "Restart to Update" once an update is downloaded. */
export type TrayMenuOptions = {
  extraItems?: MenuItemConstructorOptions[];
  /** Set while macOS refuses the app's notifications; the row opens System Settings. */
  notificationProblem?: { message: string; openSettings: () => void } | null;
};

/** The tray's menu, tooltip and the short text beside its icon ('' when all is well). */
export type TrayMenu = { title?: string; tooltip: string; template: MenuItemConstructorOptions[] };

/** Longest failure reason shown in a menu row; the full text is on the search page. */
const MAX_REASON_LENGTH = 80;

/** Builds the tray menu for the watch status at time `now` (ms since the epoch). */
export function buildTrayMenu(
  status: DesktopWatchStatus,
  now: number,
  actions: TrayActions,
  options: TrayMenuOptions = {},
): TrayMenu {
  // Waiting for the network after wake is not the user's pause: the item still offers Pause.
  const isPaused = status.state === 'paused' && status.is_waiting_for_network !== true;
  const lastCheck = describeLastCheck(status.last_check_at, now);
  const infoRows = [lastCheck, describeNextCheck(status, now)];
  if (status.is_failing) infoRows.push(describeFailure(status.failure_message));
  const extraItems = options.extraItems ?? [];
  const problem = options.notificationProblem ?? null;
  const isWarning = status.is_failing || problem !== null;
  return {
    title: isWarning ? '!' : '',
    tooltip: status.is_failing
      ? 'Shelfwatch · Checks are failing'
      : problem !== null
        ? 'Shelfwatch · Notifications are off'
        : `Shelfwatch · ${lastCheck}`,
    template: [
      ...infoRows.map((label): MenuItemConstructorOptions => ({ label, enabled: false })),
      ...(problem === null
        ? []
        : [
            { label: 'Notifications can’t be shown', enabled: false },
            { label: 'Open Notification Settings…', click: problem.openSettings },
          ]),
      { type: 'separator' },
      { label: 'Check Now', enabled: status.state !== 'checking', click: actions.checkNow },
      { label: isPaused ? 'Resume Checks' : 'Pause Checks', click: actions.togglePause },
      { type: 'separator' },
      ...(extraItems.length > 0 ? [...extraItems, { type: 'separator' as const }] : []),
      { label: 'Open Shelfwatch', click: actions.open },
      { label: 'Quit Shelfwatch', click: actions.quit },
    ],
  };
}

/** "Last check: 2 minutes ago" or "Never checked". */
export function describeLastCheck(lastCheckAt: string | null, now: number): string {
  const at = parseTime(lastCheckAt);
  if (at === null) return 'Never checked';
  const elapsed = now - at;
  // A time slightly ahead (clock skew) reads as just now.
  return elapsed < 60_000 ? 'Last check: just now' : `Last check: ${formatDuration(elapsed)} ago`;
}

/** "Next check: in 3 minutes", "Checking now…", "Paused" or why nothing is scheduled. */
export function describeNextCheck(status: DesktopWatchStatus, now: number): string {
  if (status.is_waiting_for_network === true) return 'Waiting for the network…';
  if (status.state === 'paused') return 'Paused';
  if (status.state === 'checking') return 'Checking now…';
  if (status.search_count === 0) return 'No searches to check';
  const at = parseTime(status.next_check_at);
  if (at === null) return 'Next check: not scheduled';
  const remaining = at - now;
  return remaining < 60_000
    ? 'Next check: in less than a minute'
    : `Next check: in ${formatDuration(remaining)}`;
}

/** "Checks are failing: <reason>", the reason cut to fit a menu row. */
function describeFailure(message: string | null): string {
  const reason = message?.trim() || 'Apple is not answering';
  const short =
    reason.length > MAX_REASON_LENGTH
      ? `${reason.slice(0, MAX_REASON_LENGTH - 1).trimEnd()}…`
      : reason;
  return `Checks are failing: ${short}`;
}

/** Whole minutes, hours or days of a duration of at least a minute. */
function formatDuration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return plural(hours, 'hour');
  return plural(Math.floor(hours / 24), 'day');
}

function plural(count: number, unit: string): string {
  return `${count} ${count === 1 ? unit : `${unit}s`}`;
}

function parseTime(iso: string | null): number | null {
  if (iso === null) return null;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : time;
}
