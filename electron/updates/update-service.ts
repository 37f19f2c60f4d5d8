import type { MenuItemConstructorOptions } from 'electron';
import type { AppUpdater, UpdateDownloadedEvent, UpdateInfo } from 'electron-updater';

// Updates through electron-updater: a generic feed (SHELFWATCH_UPDATE_URL, the folder the
// files of release/ are served from: latest-mac.yml beside the zips). A GitHub releases feed
// works the same way with `setFeedURL({ provider: 'github', owner, repo })`. electron-updater
// checks the download's sha512 against latest-mac.yml and, on macOS, Squirrel.Mac checks the
// code signature before installing.

/** Where the update stands, for the tray and the notification. */
export type UpdateState = {
  status: 'disabled' | 'idle' | 'checking' | 'downloading' | 'ready' | 'error';
  /** The version found (downloading or ready). */
  version: string | null;
  /** Why the last check failed, in words. */
  message: string | null;
};

/** The parts of electron-updater's AppUpdater the service drives. */
export type UpdaterLike = Pick<
  AppUpdater,
  | 'setFeedURL'
  | 'checkForUpdates'
  | 'quitAndInstall'
  | 'on'
  | 'autoDownload'
  | 'autoInstallOnAppQuit'
>;

/** Checks on start and every six hours; downloads in the background. */
export const UPDATE_CHECK_INTERVAL_MS = 6 * 60 * 60_000;
/** A check skipped for a login in flight is retried this much later. */
const LOGIN_RETRY_MS = 60_000;

/** The update service of the app. */
export type UpdateService = {
  start: () => void;
  checkNow: () => Promise<UpdateState>;
  restartToUpdate: () => void;
  getState: () => UpdateState;
  stop: () => void;
};

/**
 * Where updates come from: a URL given at run time, the feed electron-builder wrote into the
 * packed app (Resources/app-update.yml, from SHELFWATCH_UPDATE_URL at pack time), or none.
 */
export type UpdateFeed = { url: string } | 'packed' | null;

/** Creates the service; without a feed it stays disabled and never touches the network. */
export function createUpdateService(deps: {
  updater: UpdaterLike;
  feed: UpdateFeed;
  isLoginInFlight: () => boolean;
  setTimer: (fn: () => void, ms: number) => () => void;
  log: (message: string, error?: unknown) => void;
  onStateChange: (state: UpdateState) => void;
}): UpdateService {
  let state: UpdateState = {
    status: deps.feed === null ? 'disabled' : 'idle',
    version: null,
    message: null,
  };
  let cancelTimer: (() => void) | null = null;
  let isStarted = false;
  const setState = (next: UpdateState) => {
    state = next;
    deps.onStateChange(state);
  };
  const schedule = (ms: number) => {
    cancelTimer?.();
    cancelTimer = deps.setTimer(() => void checkNow(), ms);
  };

  const checkNow = async (): Promise<UpdateState> => {
    if (state.status === 'disabled' || state.status === 'ready') return state;
    if (deps.isLoginInFlight()) {
      // The browser is open for a login: a restart now would lose it.
      schedule(LOGIN_RETRY_MS);
      return state;
    }
    if (isStarted) schedule(UPDATE_CHECK_INTERVAL_MS);
    try {
      const result = await deps.updater.checkForUpdates();
      // A failed download is reported through the 'error' event; the promise must not go unhandled.
      result?.downloadPromise?.catch(() => undefined);
    } catch (error) {
      deps.log('Update check failed', error);
      setState({ status: 'error', version: state.version, message: describeUpdateError(error) });
    }
    return state;
  };

  const listen = () => {
    const { updater } = deps;
    updater.on('checking-for-update', () =>
      setState({ ...state, status: 'checking', message: null }),
    );
    updater.on('update-not-available', () =>
      setState({ status: 'idle', version: null, message: null }),
    );
    updater.on('update-available', (info: UpdateInfo) =>
      setState({ status: 'downloading', version: info.version, message: null }),
    );
    updater.on('update-downloaded', (event: UpdateDownloadedEvent) =>
      setState({ status: 'ready', version: event.version, message: null }),
    );
    updater.on('error', (error: Error) => {
      deps.log('Update failed', error);
      setState({ status: 'error', version: state.version, message: describeUpdateError(error) });
    });
  };

  return {
    start: () => {
      if (deps.feed === null || isStarted) return;
      isStarted = true;
      deps.updater.autoDownload = true;
      deps.updater.autoInstallOnAppQuit = true;
      if (deps.feed !== 'packed')
        deps.updater.setFeedURL({ provider: 'generic', url: deps.feed.url });
      listen();
      void checkNow();
    },
    checkNow,
    restartToUpdate: () => {
      if (state.status === 'ready') deps.updater.quitAndInstall();
    },
    getState: () => state,
    stop: () => {
      cancelTimer?.();
      cancelTimer = null;
    },
  };
}

/** A failure in words: a refused checksum reads differently from an unreachable feed. */
function describeUpdateError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (/sha512|checksum/i.test(text))
    return 'The downloaded update did not match its checksum and was discarded.';
  if (/ENOTFOUND|ECONNREFUSED|ETIMEDOUT|net::/i.test(text))
    return 'The update server could not be reached.';
  return `The update could not be installed: ${text.split('\n')[0]}`;
}

/** The tray's "Restart to Update" item while a downloaded update waits. */
export function buildUpdateMenuItems(
  state: UpdateState,
  restart: () => void,
): MenuItemConstructorOptions[] {
  if (state.status !== 'ready') return [];
  return [{ label: `Restart to Update (${state.version ?? 'new version'})`, click: restart }];
}

/** The notification shown once an update is ready. */
export function formatUpdateNotification(state: UpdateState): { title: string; body: string } {
  return {
    title: 'Shelfwatch update ready',
    body: `Version ${state.version ?? ''} is downloaded. Choose "Restart to Update" in the menu bar.`,
  };
}
