import type { AppUpdater, UpdateDownloadedEvent, UpdateInfo } from 'electron-updater';
import {
  describeBlockedUpdate,
  describeInstallFailure,
  describeUpdateError,
  isReadOnlyVolumeError,
  type UpdateState,
} from './update-messages.ts';

export {
  buildUpdateMenuItems,
  describeUpdateProblem,
  formatUpdateNotification,
  type UpdateMenuActions,
  type UpdateState,
} from './update-messages.ts';

// Updates through electron-updater: a generic feed (SHELFWATCH_UPDATE_URL, the folder the
// files of release/ are served from: latest-mac.yml beside the zips). A GitHub releases feed
// works the same way with `setFeedURL({ provider: 'github', owner, repo })`. electron-updater
// checks the download's sha512 against latest-mac.yml, then hands it to Squirrel.Mac (Electron's
// native autoUpdater) through a local proxy; Squirrel checks the code signature and is the one
// that installs. So the update is only "ready" once Squirrel reports it downloaded: before
// that "Restart to Update" would wait for Squirrel forever, and Squirrel refuses outright
// when the app runs from a disk image or a translocated copy (read-only volume).

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

/** Squirrel.Mac as Electron exposes it: it reports when it holds the update. */
export type NativeUpdaterLike = {
  on: (event: 'update-downloaded', listener: () => void) => unknown;
};

/** Checks on start and every six hours; downloads in the background. */
export const UPDATE_CHECK_INTERVAL_MS = 6 * 60 * 60_000;
/** A check skipped for a login in flight is retried this much later. */
const LOGIN_RETRY_MS = 60_000;
/**
 * How long "Restart to Update" may take to quit the app. Squirrel.Mac quits within seconds
 * once it installs; an app still running after this did not, and goes back to watching.
 */
export const INSTALL_TIMEOUT_MS = 20_000;

/** The update service of the app. */
export type UpdateService = {
  start: () => void;
  checkNow: () => Promise<UpdateState>;
  /** Quits and installs a ready update; false when there is none to install. */
  restartToUpdate: () => boolean;
  getState: () => UpdateState;
  stop: () => void;
  /** Plans the next check again after stop() (a restart that did not happen). */
  resume: () => void;
};

/**
 * Where updates come from: a URL given at run time, the feed electron-builder wrote into the
 * packed app (Resources/app-update.yml, from SHELFWATCH_UPDATE_URL at pack time), or none.
 */
export type UpdateFeed = { url: string } | 'packed' | null;

/** Creates the service; without a feed it stays disabled and never touches the network. */
export function createUpdateService(deps: {
  updater: UpdaterLike;
  /** Squirrel.Mac; without it an update is ready as soon as electron-updater has it. */
  nativeUpdater?: NativeUpdaterLike;
  feed: UpdateFeed;
  isLoginInFlight: () => boolean;
  setTimer: (fn: () => void, ms: number) => () => void;
  log: (message: string, error?: unknown) => void;
  onStateChange: (state: UpdateState) => void;
  /** "Restart to Update" did not quit the app: it threw, Squirrel refused, or nothing happened. */
  onInstallFailed?: (state: UpdateState) => void;
}): UpdateService {
  let state: UpdateState = {
    status: deps.feed === null ? 'disabled' : 'idle',
    version: null,
    message: null,
  };
  let cancelTimer: (() => void) | null = null;
  let cancelInstallTimer: (() => void) | null = null;
  let isStarted = false;
  let isAwaitingSquirrel = false;
  let isInstalling = false;
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
      onError(error);
    }
    return state;
  };

  const failInstall = (error: unknown) => {
    if (!isInstalling) return;
    isInstalling = false;
    cancelInstallTimer?.();
    cancelInstallTimer = null;
    deps.log('Restart to Update did not install the update', error);
    const { version } = state;
    setState(
      isReadOnlyVolumeError(error)
        ? { status: 'blocked', version, message: describeBlockedUpdate(version) }
        : { status: 'failed', version, message: describeInstallFailure(version, error) },
    );
    deps.onInstallFailed?.(state);
  };

  const onError = (error: unknown) => {
    if (isInstalling) {
      failInstall(error);
      return;
    }
    const wasAwaitingSquirrel = isAwaitingSquirrel;
    isAwaitingSquirrel = false;
    const { version } = state;
    if (isReadOnlyVolumeError(error)) {
      setState({ status: 'blocked', version, message: describeBlockedUpdate(version) });
      return;
    }
    deps.log('Update failed', error);
    setState(
      wasAwaitingSquirrel
        ? { status: 'failed', version, message: describeInstallFailure(version, error) }
        : { status: 'error', version, message: describeUpdateError(error) },
    );
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
    updater.on('update-downloaded', (event: UpdateDownloadedEvent) => {
      if (deps.nativeUpdater === undefined) {
        setState({ status: 'ready', version: event.version, message: null });
        return;
      }
      // Verified and handed to Squirrel.Mac, which now fetches it from the local proxy.
      isAwaitingSquirrel = true;
      setState({ status: 'downloading', version: event.version, message: null });
    });
    deps.nativeUpdater?.on('update-downloaded', () => {
      if (!isAwaitingSquirrel) return;
      isAwaitingSquirrel = false;
      setState({ status: 'ready', version: state.version, message: null });
    });
    updater.on('error', (error: Error) => onError(error));
  };

  return {
    start: () => {
      if (deps.feed === null || isStarted) return;
      isStarted = true;
      deps.updater.autoDownload = true;
      // Squirrel.Mac fetches the update as soon as it is verified, and installs it on any quit.
      deps.updater.autoInstallOnAppQuit = true;
      if (deps.feed !== 'packed')
        deps.updater.setFeedURL({ provider: 'generic', url: deps.feed.url });
      listen();
      void checkNow();
    },
    checkNow,
    restartToUpdate: () => {
      if (state.status !== 'ready' || isInstalling) return false;
      isInstalling = true;
      cancelInstallTimer = deps.setTimer(
        () => failInstall(new Error('Shelfwatch did not restart to install it.')),
        INSTALL_TIMEOUT_MS,
      );
      try {
        deps.updater.quitAndInstall();
      } catch (error) {
        failInstall(error);
      }
      return true;
    },
    getState: () => state,
    stop: () => {
      cancelTimer?.();
      cancelTimer = null;
    },
    resume: () => {
      if (isStarted) schedule(UPDATE_CHECK_INTERVAL_MS);
    },
  };
}
