import type { DesktopWatchStatus } from '#shared/desktop/local-search.ts';
import { IPC_EVENT_CHANNELS } from '#shared/desktop/ipc-contract.ts';
import { createTokenBucketLimiter } from '#shared/upstream/index.ts';
import { createLocalWatcher, type LocalCheckLog } from '#shared/watch/local/index.ts';
import type { AlertNotifier } from '#electron/notifications/alert-notifier.ts';
import { createAppNapGuard, type AppNapGuard } from '#electron/power/app-nap-guard.ts';
import { createWakeGraceFetch } from '#electron/power/wake-grace-fetch.ts';
import { createWakeGuard, type WakeGuard } from '#electron/power/wake-guard.ts';
import { selectWatchedSearches } from '#electron/searches/local-search-service.ts';
import { describeUpdateProblem } from '#electron/updates/update-service.ts';
import { setTimer, type DesktopContext } from './desktop-context.ts';
import { createRequestMemory } from './request-memory.ts';
import { sendToWindow } from './window-wiring.ts';

type LocalWatcher = ReturnType<typeof createLocalWatcher>;

/** The local watch loop with the guards around it and the controls the app offers. */
export type DesktopWatch = {
  watcher: LocalWatcher;
  wake: WakeGuard;
  appNap: AppNapGuard;
  /** The loop's status with what the app adds: notification and update trouble, the network. */
  getStatus: () => DesktopWatchStatus;
  checkNow: LocalWatcher['checkNow'];
  setPaused: (paused: boolean) => Promise<DesktopWatchStatus>;
  /** Before quitting: the requests of a check in flight go into the saved memory. */
  persistBeforeQuit: () => void;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One check line as support reads it in the log. */
function formatCheckLine(line: LocalCheckLog): string {
  const where = line.where === null ? '' : ` ${line.where}`;
  return `Check ${line.result}${where}: ${line.detail} (${line.requests} requests, ${line.alerts} alerts)`;
}

/** Creates the watch loop on the app store, its App Nap and wake guards, and the status report. */
export function wireWatcher(ctx: DesktopContext, notifier: AlertNotifier): DesktopWatch {
  const { config, store, state } = ctx;
  const limiter = createTokenBucketLimiter({
    capacity: config.upstreamBurst,
    refillPerSecond: config.upstreamRatePerMinute / 60,
    now: Date.now,
    sleep,
  });
  const requests = createRequestMemory({
    now: Date.now,
    loadState: () => store.get('watch'),
    saveState: (watchState) => store.set('watch', watchState),
  });
  // Declared before the loop that calls it: the wake guard needs the loop, the fetch the guard.
  let isWithinWakeGrace: () => boolean = () => false;
  const graceFetch = createWakeGraceFetch({
    fetch: ctx.fetch,
    isWithinWakeGrace: () => isWithinWakeGrace(),
    sleep,
    log: ctx.info,
  });
  const watcher = createLocalWatcher({
    fetch: (url, init) => {
      requests.record();
      return graceFetch(url, init);
    },
    now: Date.now,
    random: Math.random,
    setTimer,
    rateLimiter: limiter,
    baseUrl: config.upstreamBaseUrl,
    shape: config.upstreamShape,
    catalog: ctx.catalog,
    // Logged out, the searches made under an account's unlimited plan stay saved but unwatched.
    listSearches: () => selectWatchedSearches(store.get('searches'), ctx.session.isSignedIn()),
    getSettings: () => {
      const settings = store.get('settings');
      return {
        intervalMinutes: settings.check_interval_minutes,
        isNotifying: settings.notifications_enabled,
        defaultMaxDistanceMiles: settings.default_max_distance_miles,
      };
    },
    loadState: () => store.get('watch'),
    saveState: (watchState) => {
      store.set('watch', watchState);
      requests.markSaved();
    },
    notify: (alert) => notifier.notifyAlert(alert),
    onStatus: () => ctx.reportStatusChange(),
    onCheck: (line) => ctx.info(formatCheckLine(line)),
  });
  const appNap = createAppNapGuard({ powerSaveBlocker: ctx.electron.powerSaveBlocker });
  const wake = createWakeGuard({
    isOnline: () => ctx.electron.net.isOnline(),
    // Any answer from Apple's host proves the route the check needs; HEAD carries no page.
    // It is not the stock endpoint, so it is not taken from the Mac's bucket.
    probe: (signal) => ctx.fetch(`${config.upstreamBaseUrl}/`, { method: 'HEAD', signal }),
    resume: () => watcher.resume(),
    pause: () => watcher.pause(),
    isUserPaused: () => state.isUserPaused,
    setTimer,
    now: Date.now,
    log: ctx.log,
    info: ctx.info,
    onWaitingChange: () => ctx.reportStatusChange(),
  });
  isWithinWakeGrace = () => wake.isWithinWakeGrace();
  const getStatus = (): DesktopWatchStatus => ({
    ...watcher.getStatus(),
    notification_problem: state.notificationProblem,
    is_waiting_for_network: wake.isWaitingForNetwork(),
    update_problem: describeUpdateProblem(state.updateState),
  });
  ctx.reportStatusChange = () => {
    appNap.update(getStatus());
    ctx.refreshTray();
    sendToWindow(ctx, IPC_EVENT_CHANNELS.watchChanged);
  };
  const setPaused = async (paused: boolean) => {
    state.isUserPaused = paused;
    if (paused) {
      wake.stop();
      watcher.pause();
    } else await watcher.resume();
    ctx.refreshTray();
    return getStatus();
  };
  return {
    watcher,
    wake,
    appNap,
    getStatus,
    checkNow: () => watcher.checkNow(),
    setPaused,
    persistBeforeQuit: () => {
      const count = requests.persist();
      if (count > 0) ctx.info(`Quit during a check: ${count} requests kept for the next start`);
    },
  };
}
