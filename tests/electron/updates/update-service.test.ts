// Updates against a local feed server with electron-updater's real MacUpdater: it reads
// latest-mac.yml, downloads the zip, checks its sha512 and hands it to Squirrel.Mac through
// its local proxy. Squirrel.Mac (Electron's native autoUpdater) is the one part faked here: it
// fetches the zip from that proxy as the real one does, then reports the update downloaded.
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type RequestOptions,
  type Server,
} from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppUpdater } from 'electron-updater';
import {
  buildUpdateMenuItems,
  createUpdateService,
  type UpdateState,
} from '#electron/updates/update-service.ts';

const require = createRequire(import.meta.url);

/** Squirrel.Mac's refusal on a read-only volume (the disk image, a translocated copy). */
const READ_ONLY_ERROR =
  'Cannot update while running on a read-only volume. The application is on a read-only volume. Please move the application and try again.';

/**
 * Squirrel.Mac as electron-updater drives it: a feed URL with basic auth, then a zip; from a
 * read-only volume it refuses before downloading, as the real one does.
 */
class FakeSquirrel extends EventEmitter {
  feed: { url: string; headers?: Record<string, string> } | null = null;
  isOnReadOnlyVolume = false;
  readonly quitAndInstall = vi.fn();
  setFeedURL(options: { url: string; headers?: Record<string, string> }) {
    this.feed = options;
  }
  checkForUpdates() {
    const feed = this.feed;
    void (async () => {
      if (feed === null) throw new Error('no feed');
      const answer = (await (await fetch(feed.url, { headers: feed.headers })).json()) as {
        url: string;
      };
      if (this.isOnReadOnlyVolume) throw new Error(READ_ONLY_ERROR);
      await (await fetch(answer.url)).arrayBuffer();
      this.emit('update-downloaded');
    })().catch((error: unknown) => this.emit('error', error));
  }
}

const squirrel = new FakeSquirrel();
// electron-updater is CommonJS and requires 'electron' itself: it gets this stand-in.
const electronPath = require.resolve('electron');
require.cache[electronPath] = {
  id: electronPath,
  filename: electronPath,
  loaded: true,
  exports: { autoUpdater: squirrel, app: undefined },
} as unknown as NodeJS.Module;
const { MacUpdater } = require('electron-updater') as typeof import('electron-updater');
type ExecutorClass = new (login: () => void) => {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): unknown;
};
const { ElectronHttpExecutor } = require('electron-updater/out/electronHttpExecutor.js') as {
  ElectronHttpExecutor: ExecutorClass;
};

/**
 * electron-updater's own executor (its download, redirect and checksum code) with Node's http
 * as the transport, since Electron's net module exists only inside Electron.
 */
class NodeTransportExecutor extends ElectronHttpExecutor {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void) {
    return httpRequest(options, callback);
  }
}

const ZIP = Buffer.from('PK\u0003\u0004 a tiny stand-in for Shelfwatch-9.9.9-mac.zip');
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

let server: Server;
let feedUrl: string;
let manifestSha = sha512(ZIP);
let feedVersion = '9.9.9';
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-updates-'));
  server = createServer((request, response) => {
    // The generic provider names its channel file after the platform it runs on (latest-mac.yml
    // on a Mac, latest-linux.yml here): the feed answers the macOS manifest to either.
    if (/^\/latest(-mac|-linux)?\.yml/.test(request.url ?? '')) {
      response.writeHead(200, { 'content-type': 'text/yaml' });
      response.end(
        [
          `version: ${feedVersion}`,
          'files:',
          `  - url: Shelfwatch-${feedVersion}-mac.zip`,
          `    sha512: ${manifestSha}`,
          `    size: ${ZIP.length}`,
          `path: Shelfwatch-${feedVersion}-mac.zip`,
          `sha512: ${manifestSha}`,
          "releaseDate: '2026-11-20T10:00:00.000Z'",
        ].join('\n'),
      );
    } else if (request.url?.endsWith('.zip')) {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': ZIP.length });
      response.end(ZIP);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

/** A real MacUpdater for an installed 1.0.0 whose files live in a fresh folder. */
async function createUpdater(): Promise<AppUpdater> {
  const home = await mkdtemp(path.join(folder, 'app-'));
  // What electron-builder writes into a packed app (Resources/app-update.yml).
  await writeFile(
    path.join(home, 'app-update.yml'),
    `provider: generic\nurl: ${feedUrl}\nupdaterCacheDirName: shelfwatch-updater\n`,
  );
  const updater = new MacUpdater(undefined, {
    version: '1.0.0',
    name: 'Shelfwatch',
    isPackaged: true,
    appUpdateConfigPath: path.join(home, 'app-update.yml'),
    userDataPath: home,
    baseCachePath: home,
    whenReady: () => Promise.resolve(),
    quit: vi.fn(),
    relaunch: vi.fn(),
    onQuit: () => undefined,
  });
  updater.logger = null;
  (updater as unknown as { httpExecutor: unknown }).httpExecutor = new NodeTransportExecutor(
    () => undefined,
  );
  return updater;
}

/** Runs a service until its state settles on one of the given statuses. */
async function runUntil(
  updater: AppUpdater,
  statuses: UpdateState['status'][],
  options: { isLoginInFlight?: () => boolean } = {},
) {
  const states: UpdateState[] = [];
  const timers: number[] = [];
  let settle: (state: UpdateState) => void = () => undefined;
  const settled = new Promise<UpdateState>((resolve) => {
    settle = resolve;
  });
  const service = createUpdateService({
    updater,
    nativeUpdater: squirrel,
    feed: { url: feedUrl },
    isLoginInFlight: options.isLoginInFlight ?? (() => false),
    setTimer: (_fn, ms) => {
      timers.push(ms);
      return () => undefined;
    },
    log: () => undefined,
    onStateChange: (state) => {
      states.push(state);
      if (statuses.includes(state.status)) settle(state);
    },
  });
  service.start();
  return { service, states, timers, settled };
}

const noMove = { restart: () => undefined, moveToApplications: null };

describe('updates of the macOS app', () => {
  it('finds a newer version, downloads it, and offers "Restart to Update" once Squirrel.Mac holds it', async () => {
    manifestSha = sha512(ZIP);
    feedVersion = '9.9.9';
    squirrel.isOnReadOnlyVolume = false;
    const updater = await createUpdater();
    const { service, states, timers, settled } = await runUntil(updater, ['ready', 'error']);
    const final = await settled;
    expect(final).toEqual({ status: 'ready', version: '9.9.9', message: null });
    // electron-updater's own "downloaded" is not ready yet: Squirrel still had to fetch it.
    expect(states.filter((state) => state.status === 'downloading').length).toBeGreaterThan(1);
    expect(timers).toContain(6 * 60 * 60_000);
    const restart = () => service.restartToUpdate();
    const [item] = buildUpdateMenuItems(final, { restart, moveToApplications: null });
    expect(item?.label).toBe('Restart to Update (9.9.9)');
  });

  it('says an update is blocked, not ready, when Squirrel.Mac refuses a read-only volume', async () => {
    manifestSha = sha512(ZIP);
    feedVersion = '9.9.7';
    squirrel.isOnReadOnlyVolume = true;
    try {
      const updater = await createUpdater();
      const { states, settled } = await runUntil(updater, ['ready', 'blocked', 'error', 'failed']);
      const final = await settled;
      expect(final.status).toBe('blocked');
      expect(final.message).toMatch(
        /Move it to the Applications folder to install version 9\.9\.7/,
      );
      expect(states.map((state) => state.status)).not.toContain('ready');
      const move = vi.fn();
      const items = buildUpdateMenuItems(final, {
        restart: () => undefined,
        moveToApplications: move,
      });
      expect(items.map((item) => item.label)).toEqual([
        'Update 9.9.7 needs Shelfwatch in Applications',
        'Move to Applications…',
      ]);
    } finally {
      squirrel.isOnReadOnlyVolume = false;
    }
  });

  it('refuses a download whose checksum does not match the feed', async () => {
    manifestSha = sha512(Buffer.from('something else entirely'));
    feedVersion = '9.9.8';
    const updater = await createUpdater();
    const { settled } = await runUntil(updater, ['ready', 'error']);
    const final = await settled;
    expect(final.status).toBe('error');
    expect(final.message).toMatch(/checksum/);
    expect(buildUpdateMenuItems(final, noMove).map((item) => item.enabled)).toEqual([false]);
  });

  it('stays idle when the feed is not newer', async () => {
    manifestSha = sha512(ZIP);
    feedVersion = '1.0.0';
    const updater = await createUpdater();
    const { settled } = await runUntil(updater, ['idle', 'ready', 'error']);
    await expect(settled).resolves.toMatchObject({ status: 'idle' });
  });

  it('does not check while a login is in flight, and does nothing without a feed', async () => {
    const updater = {
      checkForUpdates: vi.fn(),
      setFeedURL: vi.fn(),
      on: vi.fn(),
      quitAndInstall: vi.fn(),
    };
    const timers: number[] = [];
    const busy = createUpdateService({
      updater: updater as unknown as AppUpdater,
      feed: { url: feedUrl },
      isLoginInFlight: () => true,
      setTimer: (_fn, ms) => {
        timers.push(ms);
        return () => undefined;
      },
      log: () => undefined,
      onStateChange: () => undefined,
    });
    busy.start();
    await busy.checkNow();
    expect(updater.checkForUpdates).not.toHaveBeenCalled();
    expect(timers).toContain(60_000);
    const idleUpdater = { checkForUpdates: vi.fn(), setFeedURL: vi.fn(), on: vi.fn() };
    const off = createUpdateService({
      updater: idleUpdater as unknown as AppUpdater,
      feed: null,
      isLoginInFlight: () => false,
      setTimer: () => () => undefined,
      log: () => undefined,
      onStateChange: () => undefined,
    });
    off.start();
    await expect(off.checkNow()).resolves.toMatchObject({ status: 'disabled' });
    expect(idleUpdater.setFeedURL).not.toHaveBeenCalled();
    expect(idleUpdater.checkForUpdates).not.toHaveBeenCalled();
  });
});
