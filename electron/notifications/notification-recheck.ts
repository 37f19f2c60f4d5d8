// Once macOS refused a notification, the app says so (status line, menu bar) until one shows
// again. Electron offers no way to ask macOS whether notifications are allowed now, and
// waiting for the next stock alert would keep the warning up long after the user fixed it
// in System Settings (and hide the alert). So while the problem stands, the app posts a
// silent test notification when the user comes back to it, and every little while after
// they opened Notification Settings from the menu bar: shown, it clears the warning (and
// confirms the fix); refused, nothing is seen and the warning stays.

/** Fewest milliseconds between two test notifications. */
export const RECHECK_MIN_GAP_MS = 15_000;
/** After "Open Notification Settings…", tests run this often... */
export const RECHECK_WATCH_INTERVAL_MS = 20_000;
/** ...for this long: enough to find the app in System Settings and switch it on. */
export const RECHECK_WATCH_DURATION_MS = 5 * 60_000;

/** Tests whether notifications show again, while they are refused. */
export type NotificationRecheck = {
  /** Tests now (at most every RECHECK_MIN_GAP_MS), if notifications are refused. */
  recheck: () => void;
  /** Tests every RECHECK_WATCH_INTERVAL_MS for a while, until they show. */
  watchForFix: () => void;
};

/** Creates the recheck over the app's notifier. */
export function createNotificationRecheck(deps: {
  hasProblem: () => boolean;
  /** Posts a silent test notification; its 'show' or 'failed' settles the problem. */
  showTest: () => void;
  setTimer: (fn: () => void, ms: number) => () => void;
  now: () => number;
}): NotificationRecheck {
  let lastTestAt: number | null = null;
  let cancelWatch: (() => void) | null = null;

  const recheck = () => {
    if (!deps.hasProblem()) return;
    const now = deps.now();
    if (lastTestAt !== null && now - lastTestAt < RECHECK_MIN_GAP_MS) return;
    lastTestAt = now;
    deps.showTest();
  };
  const watchForFix = () => {
    cancelWatch?.();
    const until = deps.now() + RECHECK_WATCH_DURATION_MS;
    const tick = () => {
      cancelWatch = null;
      if (!deps.hasProblem() || deps.now() >= until) return;
      recheck();
      cancelWatch = deps.setTimer(tick, RECHECK_WATCH_INTERVAL_MS);
    };
    cancelWatch = deps.setTimer(tick, RECHECK_WATCH_INTERVAL_MS);
  };
  return { recheck, watchForFix };
}
