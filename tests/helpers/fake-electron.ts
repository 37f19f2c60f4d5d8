// A recording fake of the Electron main-process API, enough for the app's main entry to run
// in plain Node. Every call a test may care about becomes a message on the transport (the
// desktop harness sends them to the test process over IPC); the test answers with commands.
// It must never be kinder than Electron 45: quitting closes every window first (a window whose
// 'close' is prevented cancels the quit), the native autoUpdater's quitAndInstall closes the
// windows before before-quit fires and can fail (fake-squirrel.ts), notifications can fail,
// the network can be offline or say it is online with no route (fake-net.ts), and the tray's
// menu can be open while the app replaces it (fake-tray.ts).
import { EventEmitter } from 'node:events';
import { createFakeNet, type NetFetchEvent } from './fake-net.ts';
import {
  createFakeNotifications,
  type LaunchNotification,
  type NotificationEvent,
} from './fake-notifications.ts';
import { createFakeSquirrel } from './fake-squirrel.ts';
import { createFakeTray, FakeMenu, type MenuItem, type TrayEvent } from './fake-tray.ts';

/** Messages the fake sends about what the app did. */
export type FakeElectronEvent =
  | { type: 'window-created'; windowId: number; options: unknown }
  | { type: 'load-url'; windowId: number; url: string }
  | { type: 'window-call'; windowId: number; method: string }
  | { type: 'renderer-event'; channel: string; payload: unknown }
  | NotificationEvent
  | TrayEvent
  | NetFetchEvent
  | { type: 'app-menu'; labels: string[] }
  | { type: 'window-background'; windowId: number; color: string }
  | { type: 'dialog'; message: string; buttons: string[]; response: number }
  | { type: 'show-item-in-folder'; path: string }
  | { type: 'move-to-applications' }
  | { type: 'open-external'; url: string }
  | { type: 'login-item'; openAtLogin: boolean }
  | { type: 'window-closed'; windowId: number }
  | { type: 'quit-cancelled'; reason: string }
  | { type: 'update-installed'; relaunch: boolean }
  | { type: 'power-save-blocker'; action: 'start' | 'stop'; blockerType?: string }
  | { type: 'dock'; action: 'show' | 'hide' }
  | { type: 'quit' };

export type { LaunchNotification } from './fake-notifications.ts';

/** Where the fake reports to. */
export type FakeTransport = { send: (event: FakeElectronEvent) => void };

type Listener = (...args: unknown[]) => void;

/** How the fake's macOS starts: opened at login, packed, offline, notifications refused. */
export type FakeElectronOptions = {
  userDataDir: string;
  /** app.isPackaged (electron-updater only checks for updates in a packed app). */
  isPackaged?: boolean;
  /** getLoginItemSettings().wasOpenedAtLogin and the login item the system holds. */
  wasOpenedAtLogin?: boolean;
  loginItemStatus?: 'not-registered' | 'enabled' | 'requires-approval' | 'not-found';
  /** net.isOnline() at start; the test can change it (setOnline). */
  isOnline?: boolean;
  /** When set, every notification's show() emits 'failed' with this error, as an unsigned app gets. */
  notificationError?: string;
  /** False for an app run from the disk image or Downloads: Squirrel.Mac refuses to update it. */
  isInApplicationsFolder?: boolean;
  /** Set: Squirrel.Mac's install fails with this error instead of quitting. */
  installError?: string;
  /** The notification whose click launched the app (cold start), in Notification Center. */
  launchNotification?: LaunchNotification;
  /** Where net.fetch sends requests for https://www.apple.com (a release's upstream). */
  appleUrl?: string;
};

/** Builds a fake Electron module bound to a transport. */
export function createFakeElectron(transport: FakeTransport, options: FakeElectronOptions) {
  let nextWindowId = 1;
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  const invokeHandlers = new Map<string, Listener>();
  const windows: FakeBrowserWindow[] = [];
  const appEvents = new EventEmitter();
  const powerEvents = new EventEmitter();
  const themeEvents = new EventEmitter();
  let isDarkMode = false;
  let dialogResponse = 1;
  const fakeNotifications = createFakeNotifications(transport.send, options);
  const fakeNet = createFakeNet({
    isOnline: options.isOnline ?? true,
    report: transport.send,
    appleUrl: options.appleUrl,
  });
  let appMenu: FakeMenu | null = null;
  const fakeTray = createFakeTray(transport.send);
  let loginItem = {
    openAtLogin:
      options.loginItemStatus === 'enabled' || options.loginItemStatus === 'requires-approval',
    status: options.loginItemStatus ?? 'not-registered',
  };
  let hasQuit = false;
  let nextBlockerId = 1;
  const blockers = new Set<number>();

  class FakeWebContents extends EventEmitter {
    readonly mainFrame: { url: string };
    windowOpenHandler: ((details: { url: string }) => unknown) | null = null;
    constructor(readonly windowId: number) {
      super();
      this.mainFrame = { url: '' };
    }
    send(channel: string, payload?: unknown) {
      transport.send({ type: 'renderer-event', channel, payload });
    }
    setWindowOpenHandler(handler: (details: { url: string }) => unknown) {
      this.windowOpenHandler = handler;
    }
  }

  class FakeBrowserWindow extends EventEmitter {
    readonly id: number;
    readonly webContents: FakeWebContents;
    private isWindowDestroyed = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      this.id = nextWindowId++;
      this.webContents = new FakeWebContents(this.id);
      windows.push(this);
      transport.send({ type: 'window-created', windowId: this.id, options });
    }
    async loadURL(url: string) {
      this.webContents.mainFrame.url = url;
      transport.send({ type: 'load-url', windowId: this.id, url });
      setImmediate(() => this.emit('ready-to-show'));
    }
    private record(method: string) {
      transport.send({ type: 'window-call', windowId: this.id, method });
    }
    setBackgroundColor(color: string) {
      transport.send({ type: 'window-background', windowId: this.id, color });
    }
    show() {
      this.record('show');
    }
    hide() {
      this.record('hide');
    }
    focus() {
      this.record('focus');
    }
    restore() {
      this.record('restore');
    }
    isMinimized() {
      return false;
    }
    isDestroyed() {
      return this.isWindowDestroyed;
    }
    /** As Electron: 'close' first; a listener's preventDefault keeps the window. */
    close(): boolean {
      if (this.isWindowDestroyed) return true;
      let isPrevented = false;
      this.emit('close', { preventDefault: () => (isPrevented = true) });
      if (isPrevented) return false;
      this.destroy();
      return true;
    }
    destroy() {
      if (this.isWindowDestroyed) return;
      this.isWindowDestroyed = true;
      windows.splice(windows.indexOf(this), 1);
      transport.send({ type: 'window-closed', windowId: this.id });
      this.emit('closed');
    }
    getNormalBounds() {
      const width = Number(this.options.width ?? 1100);
      const height = Number(this.options.height ?? 720);
      return { x: Number(this.options.x ?? 0), y: Number(this.options.y ?? 0), width, height };
    }
  }

  /**
   * app.quit() as Electron does it: before-quit (preventable), then every window is closed,
   * and a window that prevents its 'close' cancels the quit; only then will-quit and quit.
   */
  const quitApp = (): boolean => {
    if (hasQuit) return true;
    let isPrevented = false;
    appEvents.emit('before-quit', { preventDefault: () => (isPrevented = true) });
    if (isPrevented) {
      transport.send({ type: 'quit-cancelled', reason: 'before-quit prevented' });
      return false;
    }
    return finishQuit();
  };
  const closeAllWindows = (): boolean => {
    for (const window of [...windows]) {
      if (!window.close()) {
        transport.send({ type: 'quit-cancelled', reason: `window ${window.id} refused to close` });
        return false;
      }
    }
    return true;
  };
  const finishQuit = (): boolean => {
    if (!closeAllWindows()) return false;
    let isPrevented = false;
    appEvents.emit('will-quit', { preventDefault: () => (isPrevented = true) });
    if (isPrevented) return false;
    hasQuit = true;
    appEvents.emit('quit', { preventDefault: () => undefined }, 0);
    transport.send({ type: 'quit' });
    return true;
  };

  const nativeUpdater = createFakeSquirrel({
    isOnWritableVolume: () => options.isInApplicationsFolder !== false,
    installError: () => options.installError,
    closeAllWindows,
    quitApp,
    onInstalled: () => transport.send({ type: 'update-installed', relaunch: true }),
  });

  const fake = {
    app: {
      isPackaged: options.isPackaged === true,
      requestSingleInstanceLock: () => true,
      whenReady: () => Promise.resolve(),
      getPath: (_name: string) => options.userDataDir,
      getVersion: () => '0.1.0',
      getName: () => 'Shelfwatch',
      getAppPath: () => process.cwd(),
      setLoginItemSettings: (settings: { openAtLogin?: boolean }) => {
        const isOn = settings.openAtLogin === true;
        loginItem = { openAtLogin: isOn, status: isOn ? 'enabled' : 'not-registered' };
        transport.send({ type: 'login-item', openAtLogin: isOn });
      },
      getLoginItemSettings: () => ({
        ...loginItem,
        wasOpenedAtLogin: options.wasOpenedAtLogin === true,
      }),
      on: (event: string, listener: Listener) => appEvents.on(event, listener),
      once: (event: string, listener: Listener) => appEvents.once(event, listener),
      quit: () => quitApp(),
      relaunch: () => undefined,
      focus: () => undefined,
      exit: (code?: number) => process.exit(code),
      isInApplicationsFolder: () => options.isInApplicationsFolder !== false,
      // Electron moves the bundle and relaunches from Applications; the move is what matters here.
      moveToApplicationsFolder: () => {
        transport.send({ type: 'move-to-applications' });
        return true;
      },
      dock: {
        show: () => {
          transport.send({ type: 'dock', action: 'show' });
          return Promise.resolve();
        },
        hide: () => transport.send({ type: 'dock', action: 'hide' }),
      },
    },
    BrowserWindow: FakeBrowserWindow,
    ipcMain: {
      handle: (channel: string, listener: Listener) => invokeHandlers.set(channel, listener),
      on: () => undefined,
    },
    protocol: {
      registerSchemesAsPrivileged: () => undefined,
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
        protocolHandlers.set(scheme, handler),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined,
      },
      // electron-updater downloads through its own session partition.
      fromPartition: () => ({}),
    },
    net: fakeNet.net,
    autoUpdater: nativeUpdater,
    powerSaveBlocker: {
      start: (type: string) => {
        const id = nextBlockerId++;
        blockers.add(id);
        transport.send({ type: 'power-save-blocker', action: 'start', blockerType: type });
        return id;
      },
      stop: (id: number) => {
        const isStopped = blockers.delete(id);
        if (isStopped) transport.send({ type: 'power-save-blocker', action: 'stop' });
        return isStopped;
      },
      isStarted: (id: number) => blockers.has(id),
    },
    nativeTheme: {
      themeSource: 'system',
      get shouldUseDarkColors() {
        return isDarkMode;
      },
      on: (event: string, listener: Listener) => themeEvents.on(event, listener),
    },
    // A dialog is answered at once with the button the test chose (setDialogResponse).
    dialog: {
      showMessageBox: (options: { message: string; buttons?: string[] }) => {
        const response = dialogResponse;
        transport.send({
          type: 'dialog',
          message: options.message,
          buttons: options.buttons ?? ['OK'],
          response,
        });
        return Promise.resolve({ response, checkboxChecked: false });
      },
    },
    Notification: fakeNotifications.Notification,
    Tray: fakeTray.Tray,
    Menu: {
      buildFromTemplate: (template: MenuItem[]) => new FakeMenu(template),
      setApplicationMenu: (menu: FakeMenu | null) => {
        appMenu = menu;
        transport.send({ type: 'app-menu', labels: menu?.listLabels() ?? [] });
      },
    },
    nativeImage: { createFromPath: (path: string) => ({ path, isEmpty: () => false }) },
    powerMonitor: { on: (event: string, listener: Listener) => powerEvents.on(event, listener) },
    shell: {
      openExternal: async (url: string) => {
        transport.send({ type: 'open-external', url });
      },
      openPath: async () => '',
      showItemInFolder: (path: string) => transport.send({ type: 'show-item-in-folder', path }),
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1440, height: 900 } }] },
    // The keychain stand-in transforms the bytes, so plain text on disk would show in tests.
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (text: string) =>
        Buffer.from(Buffer.from(text, 'utf8').map((byte) => byte ^ 0x5a)),
      decryptString: (bytes: Buffer) =>
        Buffer.from(bytes.map((byte) => byte ^ 0x5a)).toString('utf8'),
    },
    contextBridge: undefined,
    ipcRenderer: undefined,
  };

  /** What the test process can ask of the fake. */
  const control = {
    /** Calls a registered ipcMain.handle handler as the window's main frame would. */
    invoke: async (channel: string, payload: unknown, frameUrl: string) => {
      const handler = invokeHandlers.get(channel);
      if (handler === undefined) throw new Error(`No handler registered for '${channel}'`);
      const window = windows.at(-1);
      if (window !== undefined) window.webContents.mainFrame.url = frameUrl;
      const senderFrame = window?.webContents.mainFrame ?? { url: frameUrl };
      return await (handler as (event: unknown, payload: unknown) => Promise<unknown>)(
        { senderFrame, sender: window?.webContents },
        payload,
      );
    },
    /** Serves a URL through the registered protocol handler. */
    fetchProtocol: async (url: string) => {
      const handler = protocolHandlers.get(new URL(url).protocol.replace(/:$/, ''));
      if (handler === undefined) throw new Error(`No protocol handler for ${url}`);
      const response = await handler(new Request(url));
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers.entries()),
        body: Buffer.from(await response.arrayBuffer()).toString('base64'),
      };
    },
    ...fakeNotifications.control,
    /** Chooses an item of the application menu (its own items; roles are Electron's). */
    clickAppMenuItem: (label: string) => {
      const item = appMenu?.findItem(label);
      if (item?.click === undefined) throw new Error(`No application menu item '${label}'`);
      item.click();
    },
    ...fakeTray.control,
    ...fakeNet.control,
    /** The page of a window finished loading (the harness's Chromium says so). */
    emitPageLoaded: (windowId: number) =>
      windows.find((window) => window.id === windowId)?.webContents.emit('did-finish-load'),
    /** The system appearance changes, as System Settings > Appearance does. */
    setDarkMode: (isDark: boolean) => {
      isDarkMode = isDark;
      themeEvents.emit('updated');
    },
    /** Which button the next dialogs answer with (1, "Not Now", unless set). */
    setDialogResponse: (response: number) => {
      dialogResponse = response;
    },
    emitPower: (event: 'suspend' | 'resume') => powerEvents.emit(event),
    /** Closes the window as its red button does. */
    closeWindow: () => windows.at(-1)?.close() ?? false,
    countOpenWindows: () => windows.length,
    countPowerSaveBlockers: () => blockers.size,
    emitApp: (event: string) => appEvents.emit(event, { preventDefault: () => undefined }),
    /** Asks the latest window's guards what they do with a navigation or a window.open. */
    tryNavigation: (url: string) => {
      const contents = windows.at(-1)?.webContents;
      let isPrevented = false;
      contents?.emit('will-navigate', { preventDefault: () => (isPrevented = true), url }, url);
      const opened = contents?.windowOpenHandler?.({ url });
      return { isNavigationPrevented: isPrevented, windowOpen: opened };
    },
  };
  return { electron: fake, control };
}
