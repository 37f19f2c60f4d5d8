import { randomUUID } from 'node:crypto';
import electronUpdater from 'electron-updater';
import path from 'node:path';
import type {
  App,
  AutoUpdater,
  BrowserWindow,
  BrowserWindowConstructorOptions,
  Dialog,
  IpcMain,
  Menu,
  MenuItemConstructorOptions,
  NativeImage,
  PowerMonitor,
  Protocol,
  SafeStorage,
  Net,
  Screen,
  Session,
  Shell,
} from 'electron';
import { IPC_EVENT_CHANNELS } from '#shared/desktop/ipc-contract.ts';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import type { DesktopNotice } from '#shared/desktop/local-search.ts';
import type { DesktopWatchStatus } from '#shared/desktop/local-search.ts';
import { createTokenBucketLimiter, resolveCountryBase } from '#shared/upstream/index.ts';
import { createLocalWatcher } from '#shared/watch/local/index.ts';
import {
  applyLaunchAtLogin,
  reconcileLaunchAtLogin,
  wasOpenedAtLogin,
} from '#electron/app/login-item.ts';
import { offerMoveToApplications } from '#electron/app/move-to-applications.ts';
import { createAppNapGuard, type PowerSaveBlockerLike } from '#electron/power/app-nap-guard.ts';
import { createWakeGuard } from '#electron/power/wake-guard.ts';
import type { DesktopConfig } from '#electron/config/desktop-config.ts';
import {
  createIpcDispatcher,
  isAppFrameSender,
  registerIpcHandlers,
} from '#electron/ipc/ipc-router.ts';
import { buildAppMenuTemplate } from '#electron/menu/app-menu.ts';
import {
  createAlertNotifier,
  type NotificationClass,
} from '#electron/notifications/alert-notifier.ts';
import {
  APP_ORIGIN,
  APP_PRIVILEGED_SCHEME,
  APP_SCHEME,
  createAppProtocolHandler,
  isAppUrl,
} from '#electron/protocol/app-protocol.ts';
import { createLocalSearchService } from '#electron/searches/local-search-service.ts';
import { openAppStore } from '#electron/store/app-store.ts';
import { buildTrayMenu } from '#electron/tray/tray-menu.ts';
import {
  buildUpdateMenuItems,
  createUpdateService,
  formatUpdateNotification,
  type UpdateFeed,
  type UpdateService,
  type UpdateState,
} from '#electron/updates/update-service.ts';
import { buildExternalAllowList, openExternalSafely } from '#electron/window/external-url.ts';
import { denyPermissions, guardWebContents } from '#electron/window/navigation-guard.ts';
import { buildMainWindowOptions } from '#electron/window/window-options.ts';
import { restoreBounds, trackWindowBounds } from '#electron/window/window-state.ts';
import { createAccountBridge } from './account-bridge.ts';
import { createDesktopHandlers } from './desktop-handlers.ts';
import { createAuthSession } from '#electron/auth/auth-session.ts';
import { createLoginSettingsResolver, startDesktopLogin } from './login-wiring.ts';

/** The parts of Electron the app uses; main.ts passes the real module, tests a recording fake. */
export type ElectronApi = {
  app: Pick<
    App,
    | 'isPackaged'
    | 'requestSingleInstanceLock'
    | 'quit'
    | 'whenReady'
    | 'on'
    | 'getPath'
    | 'setLoginItemSettings'
    | 'getLoginItemSettings'
    | 'isInApplicationsFolder'
    | 'moveToApplicationsFolder'
    | 'focus'
  > & {
    /** macOS only: the Dock icon. */
    dock?: Pick<NonNullable<App['dock']>, 'show' | 'hide'>;
  };
  /** Squirrel.Mac: its quitAndInstall closes the windows before before-quit fires. */
  autoUpdater: Pick<AutoUpdater, 'on'>;
  net: Pick<Net, 'isOnline'>;
  powerSaveBlocker: PowerSaveBlockerLike;
  dialog: Pick<Dialog, 'showMessageBox'>;
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindow;
  ipcMain: Pick<IpcMain, 'handle'>;
  protocol: Pick<Protocol, 'registerSchemesAsPrivileged' | 'handle'>;
  session: {
    defaultSession: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>;
  };
  Notification: NotificationClass;
  Tray: new (image: NativeImage) => {
    on: (event: 'mouse-enter', listener: () => void) => unknown;
    setContextMenu: (menu: Menu) => void;
    setToolTip: (text: string) => void;
    setTitle: (title: string) => void;
  };
  Menu: {
    buildFromTemplate: (template: MenuItemConstructorOptions[]) => Menu;
    setApplicationMenu: (menu: Menu | null) => void;
  };
  nativeImage: { createFromPath: (path: string) => NativeImage };
  powerMonitor: Pick<PowerMonitor, 'on'>;
  shell: Pick<Shell, 'openExternal'>;
  screen: Pick<Screen, 'getAllDisplays'>;
  safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>;
};

/** Where the built app's files are and how it is configured. */
export type DesktopAppOptions = {
  config: DesktopConfig;
  /** Folder of the built main bundle: preload.cjs, renderer/ and tray/ are beside it. */
  bundleDir: string;
  isDevelopment?: boolean;
  fetch?: typeof fetch;
  log?: (message: string, error?: unknown) => void;
};

/** The running app, for the entry point and tests. */
export type DesktopAppHandle = {
  getWindow: () => BrowserWindow | null;
  showPath: (appPath: string) => void;
};

/** Where macOS lets a user allow an app's notifications (System Settings > Notifications). */
const NOTIFICATION_SETTINGS_URL =
  'x-apple.systempreferences:com.apple.Notifications-Settings.extension';
/** Apple's store pages; the watch may point at the simulator, the pages stay Apple's. */
const APPLE_WEB_URL = 'https://www.apple.com';
/** The tray's "Last check"/"Next check" rows are in minutes: rebuilt this often. */
const TRAY_REFRESH_MS = 30_000;

const setTimer = (fn: () => void, ms: number) => {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
};

/**
 * Starts the macOS app: one window on the app:// protocol, the menu-bar item, native
 * notifications, the local watch loop (paused while the Mac sleeps) and the IPC handlers.
 * Answers null when another instance already runs (that one is brought to the front).
 */
export async function startDesktopApp(
  electron: ElectronApi,
  options: DesktopAppOptions,
): Promise<DesktopAppHandle | null> {
  const { app, protocol } = electron;
  const log = options.log ?? ((message, error) => console.error(message, error ?? ''));
  // Must happen before the app is ready, or app:// is not a secure, standard origin.
  protocol.registerSchemesAsPrivileged([APP_PRIVILEGED_SCHEME]);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  await app.whenReady();

  const { config, bundleDir } = options;
  const { store, notices: startNotices } = openAppStore({ cwd: app.getPath('userData') });
  const notices: DesktopNotice[] = [...startNotices];
  const catalog = createDesktopCatalog();
  const storeSlugs = new Map(
    catalog
      .listStores()
      .flatMap((store) =>
        store.store_slug === null ? [] : [[store.store_id, store.store_slug] as const],
      ),
  );
  const loginSettings = createLoginSettingsResolver(config, options.fetch ?? fetch);
  const session = createAuthSession({
    settings: loginSettings,
    safeStorage: electron.safeStorage,
    filePath: path.join(app.getPath('userData'), 'login.bin'),
    log,
  });
  await session.restore();
  let window: BrowserWindow | null = null;
  // One quitting state for every way out: Quit (before-quit), an update's restart
  // (before-quit-for-update: Squirrel closes the windows before before-quit fires) and the
  // moment "Restart to Update" is chosen. While it is set, closing the window closes it.
  let isQuitting = false;
  let isUserPaused = false;
  let notificationProblem: string | null = null;
  let trayRefresh: ReturnType<typeof setInterval> | null = null;
  let updates: UpdateService | null = null;
  let updateState: UpdateState = { status: 'disabled', version: null, message: null };

  const sendToWindow = (channel: string, payload?: unknown) => {
    if (window !== null && !window.isDestroyed()) window.webContents.send(channel, payload);
  };
  const allowList = buildExternalAllowList({
    siteUrl: config.siteUrl,
    supportEmail: config.appConfig.supportEmail,
    makerUrl: config.appConfig.maker.url,
  });
  // Links from the window (and the store page action) go through the allow-list; the login
  // page of the configured provider is opened by the main process itself.
  const openExternal = (url: string) => openExternalSafely(electron.shell, url, allowList);
  const openLoginPage = (url: string) => openExternalSafely(electron.shell, url);

  const createWindow = (initialPath: string): BrowserWindow => {
    const created = new electron.BrowserWindow(
      buildMainWindowOptions({
        preloadPath: path.join(bundleDir, 'preload.cjs'),
        bounds: restoreBounds(store.get('window')?.bounds, electron.screen.getAllDisplays()),
      }),
    );
    guardWebContents(created.webContents, { isAppUrl, openExternal });
    trackWindowBounds(created, (bounds) => store.set('window', { bounds }), setTimer);
    created.once('ready-to-show', () => created.show());
    // Closing the window keeps the app watching from the menu bar; Quit ends it.
    created.on('close', (event) => {
      if (!isQuitting) {
        event.preventDefault();
        created.hide();
      }
    });
    created.on('closed', () => {
      window = null;
    });
    created.loadURL(`${APP_ORIGIN}${initialPath}`).catch((error: unknown) => {
      log('The window could not load the app', error);
    });
    return created;
  };
  const showPath = (appPath: string) => {
    if (window === null || window.isDestroyed()) {
      window = createWindow(appPath);
      return;
    }
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
    bringAppForward();
    sendToWindow(IPC_EVENT_CHANNELS.navigate, { path: appPath });
  };
  /** Without a Dock icon macOS does not bring the app's window in front of others by itself. */
  function bringAppForward() {
    if (!store.get('settings').show_dock_icon) app.focus({ steal: true });
  }
  /** Shows or hides the Dock icon (macOS); hidden, the app lives in the menu bar only. */
  function applyDockIcon(shown: boolean) {
    const { dock } = app;
    if (dock === undefined) return;
    if (shown) dock.show().catch((error: unknown) => log('Could not show the Dock icon', error));
    else dock.hide();
  }
  const showWindow = () => {
    if (window === null || window.isDestroyed()) window = createWindow('/');
    else {
      if (window.isMinimized()) window.restore();
      window.show();
      window.focus();
      bringAppForward();
    }
  };

  const notifier = createAlertNotifier({
    Notification: electron.Notification,
    isEnabled: () => store.get('settings').notifications_enabled,
    openSearch: (searchId) => showPath(`/search/${encodeURIComponent(searchId)}`),
    openUrl: (url) => {
      openExternal(url).catch((error: unknown) => log('Could not open a link', error));
    },
    findStorePageUrl: (alert) => {
      const store = catalog.findStore(alert.storeId);
      const slug = storeSlugs.get(alert.storeId);
      if (store === undefined || slug === undefined) return null;
      return `${resolveCountryBase(APPLE_WEB_URL, store.country_code)}retail/${slug}/`;
    },
    onFailed: (error) => {
      notificationProblem = error.trim() === '' ? 'macOS refused them' : error.trim();
      reportStatusChange();
    },
    onShown: () => {
      if (notificationProblem === null) return;
      notificationProblem = null;
      reportStatusChange();
    },
    log,
  });
  const limiter = createTokenBucketLimiter({
    capacity: config.upstreamBurst,
    refillPerSecond: config.upstreamRatePerMinute / 60,
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
  const tray = new electron.Tray(
    electron.nativeImage.createFromPath(path.join(bundleDir, 'tray', 'trayTemplate.png')),
  );
  const watcher = createLocalWatcher({
    fetch: options.fetch ?? fetch,
    now: Date.now,
    random: Math.random,
    setTimer,
    rateLimiter: limiter,
    baseUrl: config.upstreamBaseUrl,
    shape: config.upstreamShape,
    catalog,
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
    saveState: (state) => store.set('watch', state),
    notify: (alert) => notifier.notifyAlert(alert),
    onStatus: () => reportStatusChange(),
  });
  const appNap = createAppNapGuard({
    powerSaveBlocker: electron.powerSaveBlocker,
    setTimer,
    now: Date.now,
  });
  const wake = createWakeGuard({
    isOnline: () => electron.net.isOnline(),
    resume: () => watcher.resume(),
    pause: () => watcher.pause(),
    isUserPaused: () => isUserPaused,
    setTimer,
    now: Date.now,
    log,
    onWaitingChange: () => reportStatusChange(),
  });
  /** The watch loop's status with what the app adds: notification trouble, waiting for the network. */
  const getStatus = (): DesktopWatchStatus => ({
    ...watcher.getStatus(),
    notification_problem: notificationProblem,
    is_waiting_for_network: wake.isWaitingForNetwork(),
  });
  function reportStatusChange() {
    appNap.update(getStatus());
    updateTray();
    sendToWindow(IPC_EVENT_CHANNELS.watchChanged);
  }
  const checkNow = () => watcher.checkNow();
  const setPaused = async (paused: boolean) => {
    isUserPaused = paused;
    if (paused) {
      wake.stop();
      watcher.pause();
    } else await watcher.resume();
    updateTray();
    return getStatus();
  };
  const markQuitting = () => {
    if (isQuitting) return;
    isQuitting = true;
    watcher.stop();
    updates?.stop();
    wake.stop();
    appNap.stop();
    if (trayRefresh !== null) clearInterval(trayRefresh);
  };
  const restartToUpdate = () => {
    if (updates?.getState().status !== 'ready') return;
    markQuitting();
    updates.restartToUpdate();
  };
  function updateTray() {
    const menu = buildTrayMenu(
      getStatus(),
      Date.now(),
      {
        open: showWindow,
        checkNow: () => void checkNow(),
        togglePause: () => void setPaused(!isUserPaused),
        quit: () => app.quit(),
      },
      {
        extraItems: buildUpdateMenuItems(updateState, restartToUpdate),
        notificationProblem:
          notificationProblem === null
            ? null
            : {
                message: notificationProblem,
                openSettings: () => {
                  electron.shell
                    .openExternal(NOTIFICATION_SETTINGS_URL)
                    .catch((error: unknown) => log('Could not open System Settings', error));
                },
              },
      },
    );
    tray.setToolTip(menu.tooltip);
    if (menu.title !== undefined) tray.setTitle(menu.title);
    tray.setContextMenu(electron.Menu.buildFromTemplate(menu.template));
  }

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
        watcher.checkNow().catch((error: unknown) => log('Check failed', error));
      },
    },
    catalog,
    // "Unlimited searches after logging in" (the download page's promise).
    isUnlimited: () => session.isSignedIn(),
    newId: randomUUID,
    now: Date.now,
    onChange: () => {
      updateTray();
      sendToWindow(IPC_EVENT_CHANNELS.watchChanged);
    },
  });

  const account = createAccountBridge({
    session,
    startLogin: () =>
      startDesktopLogin({
        settings: loginSettings,
        session,
        openExternal: openLoginPage,
        loopbackPorts: config.authLoopbackPorts,
      }),
    apiBaseUrl: config.siteUrl,
    fetch: options.fetch ?? fetch,
    onChange: () => {
      sendToWindow(IPC_EVENT_CHANNELS.authChanged);
      sendToWindow(IPC_EVENT_CHANNELS.watchChanged);
    },
    log,
  });
  const handlers = createDesktopHandlers({
    searches,
    catalog,
    watch: {
      getStatus,
      checkNow,
      setPaused,
      reschedule: () => watcher.reschedule(),
    },
    settings: {
      read: () => store.get('settings'),
      write: (settings) => store.set('settings', settings),
      applyLaunchAtLogin: (enabled) => applyLaunchAtLogin(app, enabled),
      applyDockIcon: (shown) => applyDockIcon(shown),
    },
    account,
    takeNotices: () => notices.splice(0, notices.length),
    openExternal,
    showNotification: (notification) => notifier.show(notification),
  });
  registerIpcHandlers(
    electron.ipcMain,
    createIpcDispatcher(handlers, {
      isTrustedSender: (event) => isAppFrameSender(event, () => window?.webContents.mainFrame),
      log,
    }),
  );
  protocol.handle(
    APP_SCHEME,
    createAppProtocolHandler({
      rendererDir: path.join(bundleDir, 'renderer'),
      appConfig: config.appConfig,
      connectSources: [config.siteUrl],
    }),
  );
  denyPermissions(electron.session.defaultSession);
  electron.Menu.setApplicationMenu(
    electron.Menu.buildFromTemplate(
      buildAppMenuTemplate({
        appName: 'Shelfwatch',
        isMac: process.platform === 'darwin',
        isDevelopment: options.isDevelopment ?? false,
        onOpenSettings: () => showPath('/settings'),
        onCheckNow: () => void checkNow(),
        onOpenSupport: () => void openExternal(`${config.siteUrl}/support`),
      }),
    ),
  );

  // Sleep: no checks while the Mac sleeps (they would fail and back off); on wake, check
  // as soon as the network is back (see wake-guard.ts).
  electron.powerMonitor.on('suspend', () => wake.onSuspend());
  electron.powerMonitor.on('resume', () => wake.onResume());
  app.on('second-instance', showWindow);
  app.on('activate', showWindow);
  // The app lives in the menu bar: closing the last window does not quit it.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', markQuitting);
  electron.autoUpdater.on('before-quit-for-update', markQuitting);

  // Updates: a feed given at run time, else the one electron-builder packed into the app.
  const feed: UpdateFeed =
    config.updateUrl !== null
      ? { url: config.updateUrl }
      : electron.app.isPackaged
        ? 'packed'
        : null;
  if (feed !== null) {
    // The getter builds the Squirrel.Mac updater on first use, so only an app with a feed has one.
    const { autoUpdater } = electronUpdater;
    updates = createUpdateService({
      updater: autoUpdater,
      feed,
      isLoginInFlight: () => account.isLoginInFlight(),
      setTimer,
      log,
      onStateChange: (state) => {
        if (state.status === 'ready' && updateState.status !== 'ready') {
          notifier.show(formatUpdateNotification(state));
        }
        updateState = state;
        updateTray();
      },
    });
  }

  // macOS started the app as a login item: it stays in the menu bar until asked for.
  const isOpenedAtLogin = wasOpenedAtLogin(app);
  const savedSettings = store.get('settings');
  const loginItem = reconcileLaunchAtLogin(app, savedSettings.launch_at_login);
  if (loginItem.isEnabled !== savedSettings.launch_at_login) {
    store.set('settings', { ...savedSettings, launch_at_login: loginItem.isEnabled });
  }
  if (loginItem.notice !== null) {
    notices.push({ id: 'login-item', level: 'warning', message: loginItem.notice });
  }
  applyDockIcon(store.get('settings').show_dock_icon);
  if (!isOpenedAtLogin) window = createWindow('/');
  updateTray();
  // "Last check: 2 minutes ago" must not be stale when the menu opens: rebuilt as the pointer
  // reaches the menu-bar icon, and every half minute for keyboard and VoiceOver users.
  tray.on('mouse-enter', () => updateTray());
  trayRefresh = setInterval(updateTray, TRAY_REFRESH_MS);
  watcher.start();
  updates?.start();
  notifier
    .attachHistory()
    .catch((error: unknown) => log('Notification history unavailable', error));
  if (!isOpenedAtLogin && app.isPackaged && !(options.isDevelopment ?? false)) {
    offerMoveToApplications({ app, dialog: electron.dialog, store, log }).catch((error: unknown) =>
      log('Could not offer to move to Applications', error),
    );
  }
  return { getWindow: () => window, showPath };
}
