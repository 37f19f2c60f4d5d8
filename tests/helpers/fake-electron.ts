// A recording fake of the Electron main-process API, enough for the app's main entry to run
// in plain Node. Every call a test may care about becomes a message on the transport (the
// desktop harness sends them to the test process over IPC); the test answers with commands.
import { EventEmitter } from 'node:events';

/** Messages the fake sends about what the app did. */
export type FakeElectronEvent =
  | { type: 'window-created'; windowId: number; options: unknown }
  | { type: 'load-url'; windowId: number; url: string }
  | { type: 'window-call'; windowId: number; method: string }
  | { type: 'renderer-event'; channel: string; payload: unknown }
  | { type: 'notification'; id: number; title: string; body: string }
  | { type: 'tray-menu'; labels: string[]; tooltip: string }
  | { type: 'app-menu'; labels: string[] }
  | { type: 'open-external'; url: string }
  | { type: 'login-item'; openAtLogin: boolean }
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

/** Builds a fake Electron module bound to a transport. */
export function createFakeElectron(transport: FakeTransport, options: { userDataDir: string }) {
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
    getNormalBounds() {
      const width = Number(this.options.width ?? 1100);
      const height = Number(this.options.height ?? 720);
      return { x: Number(this.options.x ?? 0), y: Number(this.options.y ?? 0), width, height };
    }
  }

  class FakeNotification extends EventEmitter {
    readonly id = nextNotificationId++;
    constructor(readonly options: { title: string; body: string }) {
      super();
    }
    static isSupported() {
      return true;
    }
    show() {
      notifications.set(this.id, this);
      transport.send({
        type: 'notification',
        id: this.id,
        title: this.options.title,
        body: this.options.body,
      });
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

  const fake = {
    app: {
      isPackaged: false,
      requestSingleInstanceLock: () => true,
      whenReady: () => Promise.resolve(),
      on: (event: string, listener: Listener) => appEvents.on(event, listener),
      getPath: (_name: string) => options.userDataDir,
      getVersion: () => '0.1.0',
      getName: () => 'Shelfwatch',
      setLoginItemSettings: (settings: { openAtLogin?: boolean }) =>
        transport.send({ type: 'login-item', openAtLogin: settings.openAtLogin === true }),
      getLoginItemSettings: () => ({ openAtLogin: false }),
      quit: () => {
        appEvents.emit('before-quit', { preventDefault: () => undefined });
        transport.send({ type: 'quit' });
      },
      exit: (code?: number) => process.exit(code),
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
