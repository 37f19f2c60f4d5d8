// Small recording fakes of the Electron objects the main process's modules take injected.
// Each records what was called so a test can assert it; none needs the Electron binary.
import { register } from 'node:module';
import type { App, BrowserWindow, IpcMain, Session, Shell, WebContents } from 'electron';

type Listener = (...args: unknown[]) => void;

/** A minimal event emitter: listeners by event name, emitted synchronously. */
class FakeEmitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
}

/** An Electron-style event whose preventDefault is recorded. */
export function createFakeEvent<T extends object>(extra: T = {} as T) {
  const event = {
    ...extra,
    isDefaultPrevented: false,
    preventDefault() {
      event.isDefaultPrevented = true;
    },
  };
  return event;
}

/** Web contents: records listeners and the window-open handler. */
export function createFakeWebContents() {
  const emitter = new FakeEmitter();
  let windowOpenHandler: ((details: { url: string }) => unknown) | null = null;
  const contents = {
    on: (event: string, listener: Listener) => emitter.on(event, listener),
    setWindowOpenHandler: (handler: (details: { url: string }) => unknown) => {
      windowOpenHandler = handler;
    },
  };
  return {
    contents: contents as unknown as Pick<WebContents, 'on' | 'setWindowOpenHandler'>,
    /** Emits a navigation-like event; answers whether the guard prevented it. */
    emitNavigation(event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate', url: string) {
      const fakeEvent = createFakeEvent({ url });
      emitter.emit(event, fakeEvent, url);
      return fakeEvent.isDefaultPrevented;
    },
    /** Emits will-attach-webview; answers whether it was prevented. */
    emitAttachWebview() {
      const fakeEvent = createFakeEvent();
      emitter.emit('will-attach-webview', fakeEvent, {}, {});
      return fakeEvent.isDefaultPrevented;
    },
    /** Asks the installed window-open handler about a window.open of this URL. */
    openWindow(url: string): unknown {
      if (windowOpenHandler === null) throw new Error('No window open handler installed');
      return windowOpenHandler({ url });
    },
    listenedEvents: () => [...emitter.listeners.keys()],
  };
}

/** The shell: records every URL handed to the system. */
export function createFakeShell() {
  const opened: string[] = [];
  const shell = {
    openExternal: async (url: string) => {
      opened.push(url);
    },
  };
  return { shell: shell as Pick<Shell, 'openExternal'>, opened };
}

/** ipcMain: records the registered invoke handlers by channel. */
export function createFakeIpcMain() {
  const handlers = new Map<string, (event: unknown, payload: unknown) => unknown>();
  const ipcMain = {
    handle: (channel: string, listener: (event: unknown, payload: unknown) => unknown) => {
      handlers.set(channel, listener);
    },
  };
  return { ipcMain: ipcMain as unknown as Pick<IpcMain, 'handle'>, handlers };
}

type PermissionRequestHandler = (
  contents: unknown,
  permission: string,
  callback: (isGranted: boolean) => void,
  details: { requestingUrl: string },
) => void;
type PermissionCheckHandler = (contents: unknown, permission: string, origin: string) => boolean;

/** A session: keeps the permission handlers so a test can ask them. */
export function createFakeSession() {
  let requestHandler: PermissionRequestHandler | null = null;
  let checkHandler: PermissionCheckHandler | null = null;
  const session = {
    setPermissionRequestHandler: (handler: PermissionRequestHandler) => {
      requestHandler = handler;
    },
    setPermissionCheckHandler: (handler: PermissionCheckHandler) => {
      checkHandler = handler;
    },
  };
  return {
    session: session as unknown as Pick<
      Session,
      'setPermissionRequestHandler' | 'setPermissionCheckHandler'
    >,
    /** What the request handler answers for a permission asked by a page at `url`. */
    requestPermission(permission: string, url: string): boolean {
      if (requestHandler === null) throw new Error('No permission request handler');
      let answer: boolean | null = null;
      requestHandler(null, permission, (isGranted) => (answer = isGranted), { requestingUrl: url });
      if (answer === null) throw new Error('The handler never answered');
      return answer;
    },
    checkPermission(permission: string, origin: string): boolean {
      if (checkHandler === null) throw new Error('No permission check handler');
      return checkHandler(null, permission, origin);
    },
  };
}

/** A window for bounds tracking: events, normal bounds and a destroyed flag. */
export function createFakeWindow(bounds = { x: 10, y: 20, width: 1100, height: 720 }) {
  const emitter = new FakeEmitter();
  const state = { bounds, isDestroyed: false };
  return {
    win: {
      on: (event: string, listener: Listener) => emitter.on(event, listener),
      getNormalBounds: () => ({ ...state.bounds }),
      isDestroyed: () => state.isDestroyed,
    } as unknown as Pick<BrowserWindow, 'on' | 'getNormalBounds' | 'isDestroyed'>,
    state,
    emit: (event: string) => emitter.emit(event, createFakeEvent()),
  };
}

/** Timers run by hand: `setTimer` records, `runAll` fires what is still pending. */
export function createFakeTimers() {
  let pending: { callback: () => void; ms: number; isCancelled: boolean }[] = [];
  return {
    setTimer: (callback: () => void, ms: number) => {
      const timer = { callback, ms, isCancelled: false };
      pending.push(timer);
      return () => {
        timer.isCancelled = true;
      };
    },
    pendingCount: () => pending.filter((timer) => !timer.isCancelled).length,
    runAll: () => {
      const due = pending.filter((timer) => !timer.isCancelled);
      pending = [];
      for (const timer of due) timer.callback();
    },
  };
}

/**
 * The app's login items as macOS 13+ reports them through Electron: `status` is the
 * SMAppService state and `openAtLogin` is only true while it is enabled.
 */
export function createFakeLoginItems(
  initial = false,
  options: { isApprovalHeld?: boolean; wasOpenedAtLogin?: boolean } = {},
) {
  const state = {
    openAtLogin: initial,
    status: (initial ? 'enabled' : 'not-registered') as
      'enabled' | 'not-registered' | 'requires-approval' | 'not-found',
  };
  const requests: boolean[] = [];
  const app = {
    getLoginItemSettings: () => ({
      openAtLogin: state.openAtLogin,
      status: state.status,
      wasOpenedAtLogin: options.wasOpenedAtLogin === true,
    }),
    setLoginItemSettings: (settings: { openAtLogin?: boolean }) => {
      const isOn = settings.openAtLogin === true;
      requests.push(isOn);
      // macOS may hold the change until the user approves it in System Settings.
      if (isOn && options.isApprovalHeld === true) {
        state.status = 'requires-approval';
        return;
      }
      state.openAtLogin = isOn;
      state.status = isOn ? 'enabled' : 'not-registered';
    },
  };
  return {
    app: app as unknown as Pick<App, 'getLoginItemSettings' | 'setLoginItemSettings'>,
    requests,
    state,
  };
}

/**
 * Makes `import 'electron'` inside node_modules (electron-store) load a fake with
 * `app.getPath/getVersion/getName` and `ipcMain.on`. `vi.mock` cannot do this: Vitest loads
 * dependencies natively, outside its module graph, and the real `electron` package would try
 * to download its binary. Call before the first import of electron-store.
 */
export function registerFakeElectronModule(userDataDir: string): void {
  const fake = `export default {
    app: {
      getPath: () => ${JSON.stringify(userDataDir)},
      getVersion: () => '0.1.0',
      getName: () => 'Shelfwatch',
    },
    ipcMain: { on: () => undefined },
    shell: { openPath: async () => '' },
  };`;
  const fakeUrl = `data:text/javascript,${encodeURIComponent(fake)}`;
  const hook = `export async function resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: ${JSON.stringify(fakeUrl)}, shortCircuit: true };
    return nextResolve(specifier, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}
