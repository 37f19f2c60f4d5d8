import path from 'node:path';
import type { BrowserWindow } from 'electron';
import { createDesktopCatalog, type DesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import type { DesktopNotice } from '#shared/desktop/local-search.ts';
import { createAuthSession, type AuthSession } from '#electron/auth/auth-session.ts';
import type { LoginSettings } from '#electron/auth/provider.ts';
import type { DesktopConfig } from '#electron/config/desktop-config.ts';
import { openAppStore, type AppStore } from '#electron/store/app-store.ts';
import type { UpdateService, UpdateState } from '#electron/updates/update-service.ts';
import { buildExternalAllowList, openExternalSafely } from '#electron/window/external-url.ts';
import type { ElectronApi } from './electron-api.ts';
import { createLoginSettingsResolver } from './login-wiring.ts';

/** Where the main process reports what went wrong. */
export type DesktopLog = (message: string, error?: unknown) => void;

/** What electron-updater logs through. */
export type UpdaterLogger = {
  info: (...args: unknown[]) => void;
  warn: (...args: unknown[]) => void;
  error: (...args: unknown[]) => void;
  debug: (...args: unknown[]) => void;
};

/** Where the built app's files are and how it is configured. */
export type DesktopAppOptions = {
  config: DesktopConfig;
  /** Folder of the built main bundle: preload.cjs, renderer/ and tray/ are beside it. */
  bundleDir: string;
  isDevelopment?: boolean;
  /** Apple and API requests; Electron's net.fetch (Chromium's network stack) unless given. */
  fetch?: typeof fetch;
  log?: DesktopLog;
  /** Events support reads in the log (a start, a wake, an update). */
  info?: (message: string) => void;
  /** The persistent log file "Show Log" reveals; null when there is none. */
  logFilePath?: string | null;
  updaterLogger?: UpdaterLogger | null;
};

/** What changes while the app runs; the wire functions read and set it here, never in globals. */
export type DesktopState = {
  window: BrowserWindow | null;
  /**
   * One quitting state for every way out: Quit (before-quit), an update's restart
   * (before-quit-for-update: Squirrel closes the windows before before-quit fires) and the
   * moment "Restart to Update" is chosen. While it is set, closing the window closes it.
   */
  isQuitting: boolean;
  isUserPaused: boolean;
  notificationProblem: string | null;
  /** Null without an update feed. */
  updates: UpdateService | null;
  updateState: UpdateState;
  /**
   * False from the window's creation until its page has loaded: an app:navigate sent before
   * then reaches no listener, so the window is loaded at the path instead.
   */
  isWindowLoaded: boolean;
};

/** What every wire function is handed: the app's fixed parts, its state and two late hooks. */
export type DesktopContext = {
  readonly electron: ElectronApi;
  readonly config: DesktopConfig;
  readonly bundleDir: string;
  readonly isDevelopment: boolean;
  readonly fetch: typeof fetch;
  readonly log: DesktopLog;
  readonly info: (message: string) => void;
  readonly logFilePath: string | null;
  readonly updaterLogger: UpdaterLogger | null;
  readonly store: AppStore;
  readonly catalog: DesktopCatalog;
  /** Notices for the window, taken by `notices:take`. */
  readonly notices: DesktopNotice[];
  readonly loginSettings: () => Promise<LoginSettings>;
  readonly session: AuthSession;
  /** Opens a link from the window or a notification, if the allow-list has it. */
  readonly openExternal: (url: string) => Promise<boolean>;
  readonly state: DesktopState;
  // The tray shows the watch status and the watch loop refreshes the tray, so one of them
  // must be reached late: these two hooks are set by wireTray and wireWatcher, and are
  // no-ops until then because there is nothing yet to refresh or report.
  /** Rebuilds the menu-bar menu; set by wireTray. */
  refreshTray: () => void;
  /** Tells the App Nap guard, the tray and the window that the watch status changed; set by wireWatcher. */
  reportStatusChange: () => void;
  /** What a click on an update notification does now (restart, move, show); set by wireUpdates. */
  openUpdateAction: () => void;
};

/** Electron's net.fetch as a `fetch`: Chromium's stack, the system proxy, a browser's TLS. */
export function toNetFetch(net: ElectronApi['net']): typeof fetch {
  // Looked up at each call, so a test of the real app (mac-smoke) can watch net.fetch.
  return (input, init) => net.fetch(input instanceof URL ? input.href : input, init);
}

/** A cancellable timeout, the shape every timed part of the app takes. */
export const setTimer = (fn: () => void, ms: number) => {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
};

/** Opens the store and the saved login once the app is ready, and starts the state empty. */
export async function createDesktopContext(
  electron: ElectronApi,
  options: DesktopAppOptions,
): Promise<DesktopContext> {
  const { app } = electron;
  const { config } = options;
  const log = options.log ?? ((message, error) => console.error(message, error ?? ''));
  const fetchFn = options.fetch ?? toNetFetch(electron.net);
  const { store, notices } = openAppStore({ cwd: app.getPath('userData') });
  const catalog = createDesktopCatalog();
  const loginSettings = createLoginSettingsResolver(config, fetchFn);
  const session = createAuthSession({
    settings: loginSettings,
    safeStorage: electron.safeStorage,
    filePath: path.join(app.getPath('userData'), 'login.bin'),
    log,
  });
  await session.restore();
  const allowList = buildExternalAllowList({
    siteUrl: config.siteUrl,
    supportEmail: config.appConfig.supportEmail,
    makerUrl: config.appConfig.maker.url,
  });
  return {
    electron,
    config,
    bundleDir: options.bundleDir,
    isDevelopment: options.isDevelopment ?? false,
    fetch: fetchFn,
    log,
    info: options.info ?? (() => undefined),
    logFilePath: options.logFilePath ?? null,
    updaterLogger: options.updaterLogger ?? null,
    store,
    catalog,
    notices: [...notices],
    loginSettings,
    session,
    openExternal: (url) => openExternalSafely(electron.shell, url, allowList),
    state: {
      window: null,
      isQuitting: false,
      isUserPaused: false,
      notificationProblem: null,
      updates: null,
      updateState: { status: 'disabled', version: null, message: null },
      isWindowLoaded: false,
    },
    refreshTray: () => undefined,
    reportStatusChange: () => undefined,
    openUpdateAction: () => undefined,
  };
}
