// The module `electron` resolves to in the desktop harness's child process (see
// electron-loader.js): the recording fake, reporting to the test process over Node IPC and
// taking its commands (invoke a channel, serve a protocol URL, click a notification...).
import { createFakeElectron, type FakeElectronEvent } from '#tests/helpers/fake-electron.ts';

const send = (message: FakeElectronEvent | Record<string, unknown>) => {
  process.send?.(message);
};

const { electron, control } = createFakeElectron(
  { send },
  { userDataDir: process.env.SHELFWATCH_FAKE_USER_DATA ?? process.cwd() },
);

type Command = { id: number; command: keyof typeof control; args: unknown[] };

process.on('message', (message: Command) => {
  const run = control[message.command] as (...args: unknown[]) => unknown;
  Promise.resolve()
    .then(() => run(...message.args))
    .then(
      (value) => send({ type: 'reply', id: message.id, ok: true, value }),
      (error: unknown) => send({ type: 'reply', id: message.id, ok: false, error: String(error) }),
    );
});

export const {
  app,
  BrowserWindow,
  ipcMain,
  protocol,
  session,
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
