// A recording fake of the Electron main-process API, enough for the app's main entry to run
// in plain Node. Every call a test may care about becomes a message on the transport (the
// desktop harness sends them to the test process over IPC); the test answers with commands.
// It must never be kinder than Electron 45: quitting closes every window first (a window whose
// 'close' is prevented cancels the quit), the native autoUpdater's quitAndInstall closes the
// windows before before-quit fires, notifications can fail, and the network can be offline.
import { EventEmitter } from 'node:events';
import http from 'node:http';

/** Messages the fake sends about what the app did. */
export type FakeElectronEvent =
  | { type: 'window-created'; windowId: number; options: unknown }
  | { type: 'load-url'; windowId: number; url: string }
  | { type: 'window-call'; windowId: number; method: string }
  | { type: 'renderer-event'; channel: string; payload: unknown }
  | {
      type: 'notification';
      id: number;
      title: string;
      body: string;
      notificationId?: string;
      groupId?: string;
      actions: string[];
    }
  | { type: 'notification-failed'; id: number; error: string }
  | { type: 'tray-menu'; labels: string[]; tooltip: string }
  | { type: 'app-menu'; labels: string[] }
  | { type: 'open-external'; url: string }
  | { type: 'login-item'; openAtLogin: boolean }
  | { type: 'window-closed'; windowId: number }
  | { type: 'quit-cancelled'; reason: string }
  | { type: 'update-installed'; relaunch: boolean }
  | { type: 'power-save-blocker'; action: 'start' | 'stop'; blockerType?: string }
  | { type: 'dock'; action: 'show' | 'hide' }
  | { type: 'quit' };

/** Where the fake reports to. */
export type FakeTransport = { send: (event: FakeElectronEvent) => void };

type MenuItem = {
  label?: string;
  role?: string;
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuItem[];
};
type Listener = (...args: unknown[]) => void;

/** A menu built from a template; the fake keeps the template to click its items. */
class FakeMenu {
  constructor(readonly items: MenuItem[]) {}
  /** Labels of every item, depth first, for assertions. */
  listLabels(): string[] {
    const labels: string[] = [];
    const walk = (items: MenuItem[]) => {
      for (const item of items) {
        if (item.label !== undefined) labels.push(item.label);
        else if (item.role !== undefined) labels.push(`role:${item.role}`);
        if (Array.isArray(item.submenu)) walk(item.submenu);
      }
    };
    walk(this.items);
    return labels;
  }
  /** Finds an item by its label, searching submenus too. */
  findItem(label: string): MenuItem | undefined {
    const stack = [...this.items];
    while (stack.length > 0) {
      const item = stack.shift()!;
      if (item.label === label) return item;
      if (Array.isArray(item.submenu)) stack.push(...item.submenu);
    }
    return undefined;
  }
}

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
};

/** Builds a fake Electron module bound to a transport. */
export function createFakeElectron(transport: FakeTransport, options: FakeElectronOptions) {
  let nextWindowId = 1;
  let nextNotificationId = 1;
  const notifications = new Map<number, EventEmitter>();
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  const invokeHandlers = new Map<string, Listener>();
  const windows: FakeBrowserWindow[] = [];
  let trayMenu: FakeMenu | null = null;
  let trayTooltip = '';
  const appEvents = new EventEmitter();
  const powerEvents = new EventEmitter();
  let isOnline = options.isOnline ?? true;
  let notificationError = options.notificationError;
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

  type NotificationOptions = {
    title: string;
    body: string;
    id?: string;
    groupId?: string;
    actions?: { type: string; text?: string }[];
  };
  class FakeNotification extends EventEmitter {
    readonly id = nextNotificationId++;
    constructor(readonly options: NotificationOptions) {
      super();
    }
    static isSupported() {
      return true;
    }
    /** Delivered notifications the system still shows; an unsigned app has none. */
    static getHistory() {
      return Promise.resolve([] as FakeNotification[]);
    }
    show() {
      // Electron 44+ posts through UNUserNotificationCenter: refused, it reports 'failed'
      // asynchronously and shows nothing.
      if (notificationError !== undefined) {
        const error = notificationError;
        setImmediate(() => {
          transport.send({ type: 'notification-failed', id: this.id, error });
          this.emit('failed', { preventDefault: () => undefined }, error);
        });
        return;
      }
      notifications.set(this.id, this);
      transport.send({
        type: 'notification',
        id: this.id,
        title: this.options.title,
        body: this.options.body,
        notificationId: this.options.id,
        groupId: this.options.groupId,
        actions: (this.options.actions ?? []).map((action) => action.text ?? ''),
      });
      setImmediate(() => this.emit('show', { preventDefault: () => undefined }));
    }
    close() {
      notifications.delete(this.id);
    }
  }

  class FakeTray {
    constructor(readonly image: unknown) {}
    setContextMenu(menu: FakeMenu) {
      trayMenu = menu;
      transport.send({ type: 'tray-menu', labels: menu.listLabels(), tooltip: trayTooltip });
    }
    setToolTip(text: string) {
      trayTooltip = text;
    }
    setTitle(_title: string) {}
    on() {
      return this;
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

  /**
   * Squirrel.Mac as Electron's autoUpdater exposes it: it fetches the JSON feed electron-updater's
   * local proxy serves, downloads the zip, reports update-downloaded; quitAndInstall emits
   * before-quit-for-update, closes every window (before before-quit fires) and then quits.
   */
  class FakeNativeUpdater extends EventEmitter {
    private feed: { url: string; headers?: Record<string, string> } | null = null;
    private isDownloaded = false;
    setFeedURL(feed: { url: string; headers?: Record<string, string> }) {
      this.feed = feed;
    }
    getFeedURL() {
      return this.feed?.url ?? '';
    }
    checkForUpdates() {
      const feed = this.feed;
      if (feed === null) {
        this.emit('error', new Error('Update check failed. The server sent an invalid response.'));
        return;
      }
      this.emit('checking-for-update');
      void (async () => {
        try {
          const answer = await fetch(feed.url, { headers: feed.headers });
          if (!answer.ok) throw new Error(`Squirrel: feed answered HTTP ${answer.status}`);
          const { url } = (await answer.json()) as { url: string };
          this.emit('update-available');
          const zip = await fetch(url);
          if (!zip.ok) throw new Error(`Squirrel: download answered HTTP ${zip.status}`);
          await zip.arrayBuffer();
          this.isDownloaded = true;
          this.emit('update-downloaded', {}, '', '', new Date(), feed.url);
        } catch (error) {
          this.emit('error', error);
        }
      })();
    }
    quitAndInstall() {
      if (!this.isDownloaded) return;
      this.emit('before-quit-for-update');
      if (!closeAllWindows()) return;
      if (quitApp()) transport.send({ type: 'update-installed', relaunch: true });
    }
  }
  const nativeUpdater = new FakeNativeUpdater();

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
      isInApplicationsFolder: () => true,
      moveToApplicationsFolder: () => false,
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
    // electron-updater's requests: Electron's ClientRequest behaves as Node's for plain http.
    net: {
      isOnline: () => isOnline,
      request: (requestOptions: http.RequestOptions & { session?: unknown }) => {
        const rest = { ...requestOptions };
        delete rest.session;
        return http.request(rest);
      },
    },
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
    nativeTheme: { themeSource: 'system', shouldUseDarkColors: false, on: () => undefined },
    dialog: {
      showMessageBox: () => Promise.resolve({ response: 1, checkboxChecked: false }),
    },
    Notification: FakeNotification,
    Tray: FakeTray,
    Menu: {
      buildFromTemplate: (template: MenuItem[]) => new FakeMenu(template),
      setApplicationMenu: (menu: FakeMenu | null) =>
        transport.send({ type: 'app-menu', labels: menu?.listLabels() ?? [] }),
    },
    nativeImage: { createFromPath: (path: string) => ({ path, isEmpty: () => false }) },
    powerMonitor: { on: (event: string, listener: Listener) => powerEvents.on(event, listener) },
    shell: {
      openExternal: async (url: string) => {
        transport.send({ type: 'open-external', url });
      },
      openPath: async () => '',
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
    clickNotification: (id: number) => notifications.get(id)?.emit('click'),
    clickTrayItem: (label: string) => {
      const item = trayMenu?.findItem(label);
      if (item?.click === undefined) throw new Error(`No tray item '${label}'`);
      item.click();
    },
    emitPower: (event: 'suspend' | 'resume') => powerEvents.emit(event),
    /** What net.isOnline() answers from now on. */
    setOnline: (online: boolean) => {
      isOnline = online;
    },
    /** Makes every later notification fail (as macOS refuses an unsigned app), or succeed. */
    setNotificationError: (error: string | null) => {
      notificationError = error ?? undefined;
    },
    /** Closes the window as its red button does. */
    closeWindow: () => windows.at(-1)?.close() ?? false,
    /** Clicks an action button of a notification. */
    clickNotificationAction: (id: number, actionIndex: number) =>
      notifications
        .get(id)
        ?.emit('action', { preventDefault: () => undefined, actionIndex }, actionIndex),
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
