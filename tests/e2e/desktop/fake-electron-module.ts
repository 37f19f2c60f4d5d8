// The module `electron` resolves to in the desktop harness's child process (see
// electron-loader.js): the recording fake, reporting to the test process over Node IPC and
// taking its commands (invoke a channel, serve a protocol URL, click a notification...).
// One fake per process: `require('electron')` (electron-updater) gets the same object through
// electron-require-shim.cjs.
import {
  createFakeElectron,
  type FakeElectronEvent,
  type LaunchNotification,
} from '#tests/helpers/fake-electron.ts';

const send = (message: FakeElectronEvent | Record<string, unknown>) => {
  process.send?.(message);
};

type Fake = ReturnType<typeof createFakeElectron>;
const holder = globalThis as typeof globalThis & { __shelfwatchFakeElectron?: Fake };

/** The harness's environment describes the Mac the app starts on. */
function createFromEnvironment(): Fake {
  const env = process.env;
  const created = createFakeElectron(
    { send },
    {
      userDataDir: env.SHELFWATCH_FAKE_USER_DATA ?? process.cwd(),
      isPackaged: env.SHELFWATCH_FAKE_PACKAGED === '1',
      wasOpenedAtLogin: env.SHELFWATCH_FAKE_OPENED_AT_LOGIN === '1',
      loginItemStatus: env.SHELFWATCH_FAKE_LOGIN_ITEM_STATUS as
        'not-registered' | 'enabled' | 'requires-approval' | 'not-found' | undefined,
      isOnline: env.SHELFWATCH_FAKE_OFFLINE !== '1',
      notificationError: env.SHELFWATCH_FAKE_NOTIFICATION_ERROR,
      isInApplicationsFolder: env.SHELFWATCH_FAKE_IN_APPLICATIONS !== '0',
      installError: env.SHELFWATCH_FAKE_INSTALL_ERROR,
      appleUrl: env.SHELFWATCH_FAKE_APPLE_URL,
      launchNotification:
        env.SHELFWATCH_FAKE_LAUNCH_NOTIFICATION === undefined
          ? undefined
          : (JSON.parse(env.SHELFWATCH_FAKE_LAUNCH_NOTIFICATION) as LaunchNotification),
    },
  );
  type Command = { id: number; command: keyof Fake['control']; args: unknown[] };
  process.on('message', (message: Command) => {
    const run = created.control[message.command] as (...args: unknown[]) => unknown;
    Promise.resolve()
      .then(() => run(...message.args))
      .then(
        (value) => send({ type: 'reply', id: message.id, ok: true, value }),
        (error: unknown) =>
          send({ type: 'reply', id: message.id, ok: false, error: String(error) }),
      );
  });
  return created;
}

const { electron } = (holder.__shelfwatchFakeElectron ??= createFromEnvironment());

export const {
  app,
  BrowserWindow,
  ipcMain,
  protocol,
  session,
  net,
  autoUpdater,
  powerSaveBlocker,
  nativeTheme,
  dialog,
  Notification,
  Tray,
  Menu,
  nativeImage,
  powerMonitor,
  shell,
  screen,
  safeStorage,
  contextBridge,
  ipcRenderer,
} = electron;
export default electron;
