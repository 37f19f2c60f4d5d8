// What the release behaviours' harness tests share: reading the app's watch status, matching
// what the fake recorded, and an update feed as electron-builder publishes it.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'vitest';
import type { FakeElectronEvent } from '#tests/helpers/fake-electron.ts';
import type { DesktopHarness } from './desktop-harness.ts';

type TrayMenu = Extract<FakeElectronEvent, { type: 'tray-menu' }>;

/** The watch status as the window reads it (watch:status). */
export type WatchStatus = {
  state: string;
  last_check_at: string | null;
  next_check_at: string | null;
  is_failing: boolean;
  failing_since: string | null;
  failure_message: string | null;
  cool_down_until: string | null;
  search_count: number;
  is_waiting_for_network?: boolean;
  notification_problem?: string | null;
  update_problem?: string | null;
};

/** Matches a tray menu that has an item with this label. */
export const isTrayWith =
  (label: string) =>
  (event: FakeElectronEvent): event is TrayMenu =>
    event.type === 'tray-menu' && event.labels.includes(label);
/** Matches an event of a type. */
export const ofType =
  <T extends FakeElectronEvent['type']>(type: T) =>
  (event: FakeElectronEvent): event is Extract<FakeElectronEvent, { type: T }> =>
    event.type === type;

/** The app's watch status now. */
export async function readStatus(app: DesktopHarness): Promise<WatchStatus> {
  const result = (await app.invoke('watch:status')) as { ok: boolean; value: WatchStatus };
  expect(result.ok).toBe(true);
  return result.value;
}

/** Polls the watch status until it matches. */
export async function waitForStatus(
  app: DesktopHarness,
  isDone: (status: WatchStatus) => boolean,
  timeoutMs = 20_000,
): Promise<WatchStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await readStatus(app);
    if (isDone(status)) return status;
    if (Date.now() > deadline) throw new Error(`Status never matched: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * An update feed as electron-builder publishes it: latest-mac.yml beside the zip, with the
 * zip's sha512 (electron-updater refuses a download that does not match).
 */
export async function startUpdateFeed(version: string) {
  const zipName = `Shelfwatch-${version}-universal-mac.zip`;
  const zip = Buffer.from(`PK stand-in for the ${version} app bundle`.repeat(200));
  const sha512 = createHash('sha512').update(zip).digest('base64');
  const latest = [
    `version: ${version}`,
    'files:',
    `  - url: ${zipName}`,
    `    sha512: ${sha512}`,
    `    size: ${zip.length}`,
    `path: ${zipName}`,
    `sha512: ${sha512}`,
    `releaseDate: '2026-11-20T10:00:00.000Z'`,
    '',
  ].join('\n');
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://feed');
    requests.push(url.pathname);
    if (url.pathname === '/latest-mac.yml') {
      response.writeHead(200, { 'content-type': 'text/yaml' }).end(latest);
    } else if (url.pathname === `/${zipName}`) {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length });
      response.end(zip);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The environment of a packed app whose update feed is `feedUrl`: its Resources with the
 * app-update.yml electron-builder writes, and a home for electron-updater's download cache.
 */
export async function preparePackedMac(
  feedUrl: string,
  makeFolder: () => Promise<string>,
): Promise<Record<string, string>> {
  const resources = await makeFolder();
  const home = await makeFolder();
  await writeFile(
    path.join(resources, 'app-update.yml'),
    `provider: generic\nurl: ${feedUrl}\nupdaterCacheDirName: shelfwatch-updater\n`,
  );
  return { SHELFWATCH_FAKE_PACKAGED: '1', SHELFWATCH_FAKE_RESOURCES: resources, HOME: home };
}
