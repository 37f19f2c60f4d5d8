import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type {
  App,
  BrowserWindow,
  BrowserWindowConstructorOptions,
  IpcMain,
  Menu,
  MenuItemConstructorOptions,
  NativeImage,
  PowerMonitor,
  Protocol,
  SafeStorage,
  Screen,
  Session,
  Shell,
} from 'electron';
import { IPC_EVENT_CHANNELS } from '#shared/desktop/ipc-contract.ts';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import type { DesktopNotice } from '#shared/desktop/local-search.ts';
import { createTokenBucketLimiter } from '#shared/upstream/index.ts';
import { createLocalWatcher } from '#shared/watch/local/index.ts';
import { applyLaunchAtLogin } from '#electron/app/login-item.ts';
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
import { openExternalSafely } from '#electron/window/external-url.ts';
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
  >;
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindow;
  ipcMain: Pick<IpcMain, 'handle'>;
  protocol: Pick<Protocol, 'registerSchemesAsPrivileged' | 'handle'>;
  session: {
    defaultSession: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>;
  };
  Notification: NotificationClass;
  Tray: new (image: NativeImage) => {
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
  const loginSettings = createLoginSettingsResolver(config, options.fetch ?? fetch);
  const session = createAuthSession({
    settings: loginSettings,
    safeStorage: electron.safeStorage,
    filePath: path.join(app.getPath('userData'), 'login.bin'),
    log,
  });
  await session.restore();
  let window: BrowserWindow | null = null;
  let isQuitting = false;
  let isUserPaused = false;
  let updates: UpdateService | null = null;
  let updateState: UpdateState = { status: 'disabled', version: null, message: null };

  const sendToWindow = (channel: string, payload?: unknown) => {
    if (window !== null && !window.isDestroyed()) window.webContents.send(channel, payload);
  };
  const openExternal = (url: string) => openExternalSafely(electron.shell, url);

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
    sendToWindow(IPC_EVENT_CHANNELS.navigate, { path: appPath });
  };
  const showWindow = () => {
    if (window === null || window.isDestroyed()) window = createWindow('/');
    else {
      if (window.isMinimized()) window.restore();
      window.show();
      window.focus();
    }
  };

  const notifier = createAlertNotifier({
    Notification: electron.Notification,
    isEnabled: () => store.get('settings').notifications_enabled,
    openSearch: (searchId) => showPath(`/search/${encodeURIComponent(searchId)}`),
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
    onStatus: () => {
      updateTray();
      sendToWindow(IPC_EVENT_CHANNELS.watchChanged);
    },
  });
  const checkNow = () => watcher.checkNow();
  const setPaused = async (paused: boolean) => {
    isUserPaused = paused;
    if (paused) watcher.pause();
    else await watcher.resume();
    updateTray();
    return watcher.getStatus();
  };
  function updateTray() {
    const menu = buildTrayMenu(
      watcher.getStatus(),
      Date.now(),
      {
        open: showWindow,
        checkNow: () => void checkNow(),
        togglePause: () => void setPaused(!isUserPaused),
        quit: () => app.quit(),
      },
      { extraItems: buildUpdateMenuItems(updateState, () => updates?.restartToUpdate()) },
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
    startLogin: () => startDesktopLogin({ settings: loginSettings, session, openExternal }),
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
      getStatus: () => watcher.getStatus(),
      checkNow,
      setPaused,
      reschedule: () => watcher.reschedule(),
    },
    settings: {
      read: () => store.get('settings'),
      write: (settings) => store.set('settings', settings),
      applyLaunchAtLogin: (enabled) => applyLaunchAtLogin(app, enabled),
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

  // Sleep: no checks while the Mac sleeps (they would fail and back off); check at once on wake.
  electron.powerMonitor.on('suspend', () => watcher.pause());
  electron.powerMonitor.on('resume', () => {
    if (!isUserPaused) watcher.resume().catch((error: unknown) => log('Check failed', error));
  });
  app.on('second-instance', showWindow);
  app.on('activate', showWindow);
  // The app lives in the menu bar: closing the last window does not quit it.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', () => {
    isQuitting = true;
    watcher.stop();
    updates?.stop();
  });

  // Updates: a feed given at run time, else the one electron-builder packed into the app.
  const feed: UpdateFeed =
    config.updateUrl !== null
      ? { url: config.updateUrl }
      : electron.app.isPackaged
        ? 'packed'
        : null;
  if (feed !== null) {
    const { autoUpdater } = (await import('electron-updater')).default;
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

  window = createWindow('/');
  updateTray();
  watcher.start();
  updates?.start();
  return { getWindow: () => window, showPath };
}
