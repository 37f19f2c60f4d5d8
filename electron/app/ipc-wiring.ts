import { randomUUID } from 'node:crypto';
import { IPC_EVENT_CHANNELS } from '#shared/desktop/ipc-contract.ts';
import {
  createIpcDispatcher,
  isAppFrameSender,
  registerIpcHandlers,
} from '#electron/ipc/ipc-router.ts';
import type { AlertNotifier } from '#electron/notifications/alert-notifier.ts';
import { createLocalSearchService } from '#electron/searches/local-search-service.ts';
import { applyLocalRetirements, parseWatchState } from '#shared/watch/local/index.ts';
import type { AccountBridge } from './account-bridge.ts';
import { createDesktopHandlers } from './desktop-handlers.ts';
import type { DesktopContext } from './desktop-context.ts';
import { applyDockIcon } from './dock-icon.ts';
import { applyLaunchAtLogin } from './login-item.ts';
import type { DesktopWatch } from './watch-wiring.ts';
import { sendToWindow } from './window-wiring.ts';

/** Registers the window's request handlers, each answering only the app's own frame. */
export function wireIpc(
  ctx: DesktopContext,
  parts: { notifier: AlertNotifier; watch: DesktopWatch; account: AccountBridge },
): void {
  const { electron, store } = ctx;
  const { notifier, watch, account } = parts;
  // Screens and new searches see the bundled catalog less what this Mac's answers retired.
  const catalog = applyLocalRetirements(ctx.catalog, () => parseWatchState(store.get('watch')));
  const { watcher } = watch;
  const searches = createLocalSearchService({
    storage: {
      readSearches: () => store.get('searches'),
      writeSearches: (list) => store.set('searches', list),
    },
    watch: {
      countStoresWithInventory: (search) => watcher.countStoresWithInventory(search),
      buildInventory: (search) => watcher.buildInventory(search),
      buildHistory: (search, days) => watcher.buildHistory(search, days),
      requestCheck: () => {
        watcher.checkNow().catch((error: unknown) => ctx.log('Check failed', error));
      },
    },
    catalog,
    // "Unlimited searches after logging in" (the download page's promise).
    isUnlimited: () => ctx.session.isSignedIn(),
    newId: randomUUID,
    now: Date.now,
    onChange: () => {
      ctx.refreshTray();
      sendToWindow(ctx, IPC_EVENT_CHANNELS.watchChanged);
    },
  });
  const handlers = createDesktopHandlers({
    searches,
    catalog,
    watch: {
      getStatus: watch.getStatus,
      checkNow: watch.checkNow,
      setPaused: watch.setPaused,
      reschedule: () => watcher.reschedule(),
    },
    settings: {
      read: () => store.get('settings'),
      write: (settings) => store.set('settings', settings),
      applyLaunchAtLogin: (enabled) => applyLaunchAtLogin(electron.app, enabled),
      applyDockIcon: (shown) => applyDockIcon(ctx, shown),
    },
    account,
    takeNotices: () => ctx.notices.splice(0, ctx.notices.length),
    openExternal: ctx.openExternal,
    showNotification: (notification) => notifier.show(notification),
  });
  registerIpcHandlers(
    electron.ipcMain,
    createIpcDispatcher(handlers, {
      isTrustedSender: (event) =>
        isAppFrameSender(event, () => ctx.state.window?.webContents.mainFrame),
      log: ctx.log,
    }),
  );
}
