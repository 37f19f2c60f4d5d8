// The desktop harness: the app's real built main bundle runs in a Node child process with
// `electron` resolved to a recording fake; its real built preload runs in Debian Chromium
// against a contextBridge/ipcRenderer shim; the real renderer is served through the main
// process's own app:// protocol handler. IPC crosses Playwright's exposeFunction and Node IPC.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { FakeElectronEvent } from '#tests/helpers/fake-electron.ts';

const rootDir = path.resolve(import.meta.dirname, '..', '..', '..');
/** Where `npm run build:desktop` puts the app's bundles. */
export const DESKTOP_BUNDLE_DIR = path.join(rootDir, 'dist', 'desktop');
const APP_ORIGIN = 'app://shelfwatch';
/** The http origin the harness shows app:// pages under (Chromium has no app:// here). */
export const HARNESS_ORIGIN = 'http://shelfwatch.localhost';

/** Builds the app's bundles when they are missing (the website build is separate). */
export async function ensureDesktopBuilt(): Promise<void> {
  const needed = ['main.js', 'preload.cjs', path.join('renderer', 'index.html')];
  if (needed.every((file) => existsSync(path.join(DESKTOP_BUNDLE_DIR, file)))) return;
  const { build } = await import('vite');
  await build({ configFile: path.join(rootDir, 'vite.desktop.config.ts'), logLevel: 'warn' });
}

/** app://shelfwatch/x as the page's http URL, and back. */
export function toHarnessUrl(appUrl: string): string {
  return appUrl.startsWith(APP_ORIGIN) ? HARNESS_ORIGIN + appUrl.slice(APP_ORIGIN.length) : appUrl;
}
function toAppUrl(harnessUrl: string): string {
  return harnessUrl.startsWith(HARNESS_ORIGIN)
    ? APP_ORIGIN + harnessUrl.slice(HARNESS_ORIGIN.length)
    : harnessUrl;
}

/** Wraps the built CommonJS preload so it runs in the page with the IPC shim as `electron`. */
function buildPreloadScript(preloadCode: string): string {
  return `(() => {
  const listeners = new Map();
  window.__shelfwatchHarness = {
    emit(channel, payload) {
      for (const listener of listeners.get(channel) ?? []) listener({ sender: null }, payload);
    },
  };
  const ipcRenderer = {
    invoke: (channel, payload) => window.__shelfwatchInvoke(channel, payload),
    on(channel, listener) {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      return ipcRenderer;
    },
    removeListener(channel, listener) {
      listeners.set(channel, (listeners.get(channel) ?? []).filter((l) => l !== listener));
      return ipcRenderer;
    },
  };
  const contextBridge = {
    exposeInMainWorld(name, api) {
      Object.defineProperty(window, name, { value: Object.freeze(api), enumerable: false });
    },
  };
  // A sandboxed preload may only require 'electron': anything else fails here as it would there.
  const require = (id) => {
    if (id === 'electron') return { contextBridge, ipcRenderer };
    throw new Error('A sandboxed preload cannot require ' + id);
  };
  const module = { exports: {} };
  (function (require, module, exports) {
${preloadCode}
  })(require, module, module.exports);
})();`;
}

type Reply = { type: 'reply'; id: number; ok: boolean; value?: unknown; error?: string };

/** A running app in the harness. */
export type DesktopHarness = {
  page: Page;
  /** Everything the fake recorded, in order. */
  events: FakeElectronEvent[];
  /** Resolves with the first recorded event (past or future) that matches. */
  waitForEvent: <T extends FakeElectronEvent>(
    predicate: (event: FakeElectronEvent) => event is T,
    timeoutMs?: number,
  ) => Promise<T>;
  /** Sends a request as the app's own window would (its frame URL included). */
  invoke: (channel: string, payload?: unknown, frameUrl?: string) => Promise<unknown>;
  clickNotification: (id: number) => Promise<void>;
  clickTrayItem: (label: string) => Promise<void>;
  emitPower: (event: 'suspend' | 'resume') => Promise<void>;
  tryNavigation: (url: string) => Promise<{ isNavigationPrevented: boolean; windowOpen: unknown }>;
  /** Any other command of the fake (setOnline, setNotificationError, closeWindow...). */
  control: (command: string, ...args: unknown[]) => Promise<unknown>;
  /** Quits the app and closes the page; keeps the user data folder when asked to. */
  stop: () => Promise<void>;
  userDataDir: string;
  /** Lines the main process printed, then the page's console, errors and failed requests. */
  output: string[];
  /** What a failed test needs to say why: the page's URL and text, and everything printed. */
  describeState: () => Promise<string>;
};

/** Longest a command to the app's main process (an IPC call, a click) may take. */
const COMMAND_TIMEOUT_MS = 25_000;

/** Starts the built app against the given upstream with a fresh (or given) user data folder. */
export async function startDesktopHarness(options: {
  browser: Browser;
  upstreamUrl: string;
  userDataDir?: string;
  env?: Record<string, string>;
}): Promise<DesktopHarness> {
  await ensureDesktopBuilt();
  const userDataDir =
    options.userDataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-app-')));
  const preloadCode = await readFile(path.join(DESKTOP_BUNDLE_DIR, 'preload.cjs'), 'utf8');
  const events: FakeElectronEvent[] = [];
  const waiters = new Set<() => void>();
  const replies = new Map<number, (reply: Reply) => void>();
  const output: string[] = [];
  let nextId = 1;

  const child: ChildProcess = fork(path.join(DESKTOP_BUNDLE_DIR, 'main.js'), [], {
    cwd: rootDir,
    execArgv: ['--import', 'tsx', '--import', './tests/e2e/desktop/register-fake-electron.js'],
    env: {
      ...process.env,
      SHELFWATCH_FAKE_USER_DATA: userDataDir,
      SHELFWATCH_UPSTREAM_URL: options.upstreamUrl,
      ...options.env,
    },
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));

  const context = await options.browser.newContext({ viewport: { width: 1100, height: 720 } });
  const page = await context.newPage();
  // What the page says goes beside what the main process printed: a screen that never shows
  // is otherwise a bare timeout.
  page.on('console', (message) => output.push(`[page ${message.type()}] ${message.text()}\n`));
  page.on('pageerror', (error) => output.push(`[page error] ${error.message}\n`));
  page.on('requestfailed', (request) =>
    output.push(`[page request failed] ${request.url()} ${request.failure()?.errorText ?? ''}\n`),
  );
  // A main process that died or hung must fail the test with what it printed, not leave
  // the test waiting for a reply until vitest's own timeout says nothing useful.
  let exitDescription: string | undefined;
  child.once('exit', (code, signal) => {
    exitDescription = `the app's main process exited (code ${code}, signal ${signal})`;
    for (const reply of replies.values()) reply({ type: 'reply', id: 0, ok: false, error: '' });
    replies.clear();
  });
  const command = (name: string, ...args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      const fail = (reason: string) => reject(new Error(`${name}: ${reason}\n${output.join('')}`));
      if (exitDescription !== undefined) {
        fail(exitDescription);
        return;
      }
      const timer = setTimeout(() => {
        replies.delete(id);
        fail(`no answer within ${COMMAND_TIMEOUT_MS} ms`);
      }, COMMAND_TIMEOUT_MS);
      replies.set(id, (reply) => {
        clearTimeout(timer);
        if (exitDescription !== undefined) fail(exitDescription);
        else if (reply.ok) resolve(reply.value);
        else {
          output.push(`[harness] ${name} ${JSON.stringify(args[0])} failed: ${reply.error}\n`);
          reject(new Error(reply.error));
        }
      });
      child.send({ id, command: name, args });
    });

  // The window's first load must wait for the page's routes and the preload: the main process
  // can ask for it before they are in place, and a page loaded without the preload runs as the
  // website (fresh-clone runs showed the landing page where My Searches was expected).
  const isPageReady = (async () => {
    await page.route(`${HARNESS_ORIGIN}/**`, async (route) => {
      const answer = (await command('fetchProtocol', toAppUrl(route.request().url()))) as {
        status: number;
        headers: Record<string, string>;
        body: string;
      };
      await route.fulfill({
        status: answer.status,
        headers: answer.headers,
        body: Buffer.from(answer.body, 'base64'),
      });
    });
    await page.exposeFunction('__shelfwatchInvoke', (channel: string, payload: unknown) =>
      command('invoke', channel, payload, toAppUrl(page.url())),
    );
    await page.addInitScript({ content: buildPreloadScript(preloadCode) });
  })();

  child.on('message', (message: FakeElectronEvent | Reply) => {
    if (message.type === 'reply') {
      replies.get(message.id)?.(message);
      replies.delete(message.id);
      return;
    }
    events.push(message);
    if (message.type === 'load-url') {
      // As Electron's did-finish-load: the app may only send events to a page that loaded.
      isPageReady
        .then(() => page.goto(toHarnessUrl(message.url)))
        .then(() => command('emitPageLoaded', message.windowId))
        .catch(() => undefined);
    } else if (message.type === 'renderer-event') {
      page
        .evaluate(
          ([channel, payload]) => {
            const harness = (
              window as unknown as Record<
                string,
                { emit: (c: unknown, p: unknown) => void } | undefined
              >
            ).__shelfwatchHarness;
            harness?.emit(channel, payload);
          },
          [message.channel, message.payload] as const,
        )
        .catch(() => undefined);
    }
    for (const wake of waiters) wake();
  });
  await isPageReady;

  const waitForEvent: DesktopHarness['waitForEvent'] = (predicate, timeoutMs = 20_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = events.find(predicate);
        if (found === undefined) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`No matching app event within ${timeoutMs} ms\n${output.join('')}`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });

  return {
    page,
    events,
    waitForEvent,
    invoke: (channel, payload, frameUrl = toAppUrl(page.url())) =>
      command('invoke', channel, payload, frameUrl),
    clickNotification: async (id) => {
      await command('clickNotification', id);
    },
    clickTrayItem: async (label) => {
      await command('clickTrayItem', label);
    },
    emitPower: async (event) => {
      await command('emitPower', event);
    },
    tryNavigation: async (url) =>
      (await command('tryNavigation', url)) as {
        isNavigationPrevented: boolean;
        windowOpen: unknown;
      },
    control: (name, ...args) => command(name, ...args),
    stop: async () => {
      await context.close();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (options.userDataDir === undefined)
        await rm(userDataDir, { recursive: true, force: true });
    },
    userDataDir,
    output,
    describeState: async () => {
      const text = await page
        .evaluate(() => document.body.innerText)
        .catch((error: unknown) => `(unreadable: ${String(error)})`);
      return [
        `page ${page.url()} shows:`,
        text.slice(0, 2000),
        `events: ${events.map((event) => event.type).join(', ')}`,
        'printed:',
        output.join('').slice(-8000),
      ].join('\n');
    },
  };
}
