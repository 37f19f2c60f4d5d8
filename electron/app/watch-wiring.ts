import path from 'node:path';
import type { DesktopWatchStatus } from '#shared/desktop/local-search.ts';
import { IPC_EVENT_CHANNELS } from '#shared/desktop/ipc-contract.ts';
import {
  createLocalWatcher,
  createRequestBudget,
  type LocalCheckLog,
} from '#shared/watch/local/index.ts';
import type { AlertNotifier } from '#electron/notifications/alert-notifier.ts';
import { createAppNapGuard, type AppNapGuard } from '#electron/power/app-nap-guard.ts';
import { createWakeGraceFetch } from '#electron/power/wake-grace-fetch.ts';
import { createWakeGuard, type WakeGuard } from '#electron/power/wake-guard.ts';
import { selectWatchedSearches } from '#electron/searches/local-search-service.ts';
import { describeUpdateProblem } from '#electron/updates/update-service.ts';
import { setTimer, type DesktopContext } from './desktop-context.ts';
import { BUDGET_FILE_NAME, openBudgetFile } from './request-budget-file.ts';
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
  /**
   * Before quitting: what a check in flight learned so far is saved (its answers, so their
   * alerts are not raised again). Its requests are in the Mac's budget file already.
   */
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
  // The Mac's budget at Apple, shared with `shelfwatch watch` through the file in the app's
  // folder: each request is written there before it goes, so a quit mid-check still counts it.
  const budget = createRequestBudget({
    store: openBudgetFile(
      config.budgetFilePath ?? path.join(ctx.electron.app.getPath('userData'), BUDGET_FILE_NAME),
    ),
    baseUrl: config.upstreamBaseUrl,
    pacing: {
      burst: config.upstreamBurst,
      ratePerMinute: config.upstreamRatePerMinute,
      minGapMs: config.upstreamMinGapSeconds * 1000,
    },
    now: Date.now,
    sleep,
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
    fetch: graceFetch,
    now: Date.now,
    random: Math.random,
    setTimer,
    budget,
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
    saveState: (watchState) => store.set('watch', watchState),
    notify: (searchId, alerts) => notifier.notifyAlerts(searchId, alerts),
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
      // Paused by a sleep in the middle of a check, the check is still in flight.
      const isChecking = watcher.getStatus().state !== 'idle';
      watcher.saveNow();
      if (isChecking) ctx.info('Quit during a check: what it had learned is saved');
    },
  };
}
