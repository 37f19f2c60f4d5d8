import type { DesktopWatchStatus } from '#shared/desktop/local-search.ts';
import { IPC_EVENT_CHANNELS } from '#shared/desktop/ipc-contract.ts';
import { createTokenBucketLimiter } from '#shared/upstream/index.ts';
import { createLocalWatcher } from '#shared/watch/local/index.ts';
import type { AlertNotifier } from '#electron/notifications/alert-notifier.ts';
import { createAppNapGuard, type AppNapGuard } from '#electron/power/app-nap-guard.ts';
import { createWakeGuard, type WakeGuard } from '#electron/power/wake-guard.ts';
import { setTimer, type DesktopContext } from './desktop-context.ts';
import { sendToWindow } from './window-wiring.ts';

type LocalWatcher = ReturnType<typeof createLocalWatcher>;

/** The local watch loop with the guards around it and the controls the app offers. */
export type DesktopWatch = {
  watcher: LocalWatcher;
  wake: WakeGuard;
  appNap: AppNapGuard;
  /** The loop's status with what the app adds: notification trouble, waiting for the network. */
  getStatus: () => DesktopWatchStatus;
  checkNow: LocalWatcher['checkNow'];
  setPaused: (paused: boolean) => Promise<DesktopWatchStatus>;
};

/** Creates the watch loop on the app store, its App Nap and wake guards, and the status report. */
export function wireWatcher(ctx: DesktopContext, notifier: AlertNotifier): DesktopWatch {
  const { config, store, state } = ctx;
  const limiter = createTokenBucketLimiter({
    capacity: config.upstreamBurst,
    refillPerSecond: config.upstreamRatePerMinute / 60,
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
  const watcher = createLocalWatcher({
    fetch: ctx.fetch,
    now: Date.now,
    random: Math.random,
    setTimer,
    rateLimiter: limiter,
    baseUrl: config.upstreamBaseUrl,
    shape: config.upstreamShape,
    catalog: ctx.catalog,
    listSearches: () => store.get('searches'),
    getSettings: () => {
      const settings = store.get('settings');
      return {
        intervalMinutes: settings.check_interval_minutes,
        isNotifying: settings.notifications_enabled,
        defaultMaxDistanceMiles: settings.default_max_distance_miles,
      };
    },
    loadState: () => store.get('watch'),
    saveState: (watchState) => store.set('watch', watchState),
    notify: (alert) => notifier.notifyAlert(alert),
    onStatus: () => ctx.reportStatusChange(),
  });
  const appNap = createAppNapGuard({
    powerSaveBlocker: ctx.electron.powerSaveBlocker,
    setTimer,
    now: Date.now,
  });
  const wake = createWakeGuard({
    isOnline: () => ctx.electron.net.isOnline(),
    resume: () => watcher.resume(),
    pause: () => watcher.pause(),
    isUserPaused: () => state.isUserPaused,
    setTimer,
    now: Date.now,
    log: ctx.log,
    onWaitingChange: () => ctx.reportStatusChange(),
  });
  const getStatus = (): DesktopWatchStatus => ({
    ...watcher.getStatus(),
    notification_problem: state.notificationProblem,
    is_waiting_for_network: wake.isWaitingForNetwork(),
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
  return { watcher, wake, appNap, getStatus, checkNow: () => watcher.checkNow(), setPaused };
}
