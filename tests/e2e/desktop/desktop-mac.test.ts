// What a Mac does that the app must meet, in the desktop harness with a fake of Electron no
// kinder than macOS: Apple's requests on Chromium's stack (net.fetch), a wake whose network
// says it is online but answers only 10 s later, a menu-bar menu held open, a quit in the
// middle of a check, a notification click that launched the app, and the log support reads.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { startUpstreamSimulator, type RunningUpstreamSimulator } from '#server/simulator/index.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import type { FakeElectronEvent } from '#tests/helpers/fake-electron.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startDesktopHarness, type DesktopHarness } from './desktop-harness.ts';
import { isTrayWith, ofType, readStatus, waitForStatus } from './release-helpers.ts';

type NetFetch = Extract<FakeElectronEvent, { type: 'net-fetch' }>;
const FIVE_MINUTES_MS = 5 * 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Adds the free search and waits for its first check. */
async function addSearchAndCheck(app: DesktopHarness) {
  await app.page.getByRole('heading', { name: 'My Searches' }).waitFor();
  const created = (await app.invoke('searches:create', {
    product_type: 'iphone18pro',
    store_id: 'R095',
  })) as { ok: boolean; value: { search_id: string } };
  expect(created.ok).toBe(true);
  const status = await waitForStatus(app, (s) => s.state === 'idle' && s.last_check_at !== null);
  expect(status.is_failing, JSON.stringify(status)).toBe(false);
  return { searchId: created.value.search_id, status };
}

describe('the macOS app on a real Mac', { timeout: 120_000 }, () => {
  let browser: Browser;
  let simulator: RunningUpstreamSimulator;
  const apps = new Set<DesktopHarness>();
  const folders: string[] = [];

  const start = async (env: Record<string, string> = {}, userDataDir?: string) => {
    const app = await startDesktopHarness({
      browser,
      upstreamUrl: simulator.url,
      env,
      userDataDir,
    });
    apps.add(app);
    onTestFailed(async () => {
      console.error(`The app as the test failed:\n${await app.describeState()}`);
    });
    return app;
  };
  const stop = async (app: DesktopHarness) => {
    apps.delete(app);
    await app.stop();
  };
  const makeFolder = async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-mac-'));
    folders.push(folder);
    return folder;
  };

  beforeAll(async () => {
    simulator = await startUpstreamSimulator({
      port: await getFreePort(),
      seed: 45,
      stores: STORE_SEEDS,
      models: PRODUCT_MODEL_SEEDS,
      countries: COUNTRY_SEEDS,
      now: Date.now,
    });
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    for (const app of apps) await app.stop();
    await browser?.close();
    await simulator?.close();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('sends its check requests through net.fetch, Chromium’s network stack', async () => {
    const app = await start();
    await addSearchAndCheck(app);
    const requests = app.events.filter(
      (event): event is NetFetch => event.type === 'net-fetch' && event.method === 'GET',
    );
    expect(requests.length).toBeGreaterThan(0);
    expect(requests[0]?.url.startsWith(`${simulator.url}/`)).toBe(true);
    expect(requests[0]?.url).toMatch(/pickup-message|fulfillment-messages/);
    expect(requests[0]).toMatchObject({ outcome: 'answered', status: 200 });
  });

  it('after wake, waits for a network that answers only after 10 s: no "!" and no back-off', async () => {
    const app = await start();
    const { status: first } = await addSearchAndCheck(app);
    await app.emitPower('suspend');
    // net.isOnline() still says true: only a real request can tell.
    await app.control('setNoRouteFor', 10_000);
    const wokeAt = Date.now();
    await app.emitPower('resume');
    expect((await readStatus(app)).is_waiting_for_network).toBe(true);
    await app.waitForEvent(isTrayWith('Waiting for the network…'));
    const after = await waitForStatus(
      app,
      (s) => s.state === 'idle' && s.last_check_at !== first.last_check_at,
      30_000,
    );
    expect(Date.now() - wokeAt).toBeGreaterThanOrEqual(10_000);
    expect(after).toMatchObject({
      is_failing: false,
      failing_since: null,
      failure_message: null,
      cool_down_until: null,
      is_waiting_for_network: false,
    });
    // The probes found no route; no check request did, so nothing failed or backed off.
    const failed = app.events.filter(
      (event): event is NetFetch => event.type === 'net-fetch' && event.outcome === 'failed',
    );
    expect(failed.length).toBeGreaterThanOrEqual(3);
    expect(failed.every((event) => event.method === 'HEAD')).toBe(true);
    expect(app.events).not.toContainEqual({ type: 'tray-title', title: '!' });
    const interval = Date.parse(after.next_check_at ?? '') - Date.parse(after.last_check_at ?? '');
    expect(interval).toBeGreaterThan(FIVE_MINUTES_MS * 0.85);
    expect(interval).toBeLessThan(FIVE_MINUTES_MS * 1.15);
  });

  it('never replaces the menu-bar menu while it is open, and rebuilds it only when it changed', async () => {
    const app = await start();
    await app.page.getByRole('heading', { name: 'My Searches' }).waitFor();
    await app.waitForEvent(isTrayWith('Pause Checks'));
    const countMenus = () => app.events.filter(ofType('tray-menu')).length;
    await app.control('openTrayMenu');
    const whileOpen = countMenus();
    const paused = (await app.invoke('watch:set-paused', { paused: true })) as { ok: boolean };
    expect(paused.ok).toBe(true);
    await sleep(300);
    expect(countMenus()).toBe(whileOpen);
    expect(app.events).not.toContainEqual({ type: 'tray-menu-replaced-while-open' });
    // Closed, it catches up at once.
    await app.control('closeTrayMenu');
    await app.waitForEvent(isTrayWith('Resume Checks'));
    // Opened again with nothing changed: the same menu.
    const settled = countMenus();
    await app.control('openTrayMenu');
    await app.control('closeTrayMenu');
    expect(countMenus()).toBe(settled);
  });

  it('starts without taking focus, closes with ⌘W, follows dark mode and keeps a log support can find', async () => {
    const app = await start();
    await app.page.getByRole('heading', { name: 'My Searches' }).waitFor();
    expect(app.events).not.toContainEqual({ type: 'dock', action: 'show' });
    const menu = await app.waitForEvent(ofType('app-menu'));
    expect(menu.labels.slice(0, 20)).toContain('role:close');
    const created = await app.waitForEvent(ofType('window-created'));
    expect(created.options).toMatchObject({ backgroundColor: '#ffffff' });
    await app.control('setDarkMode', true);
    await app.waitForEvent(
      (event): event is Extract<FakeElectronEvent, { type: 'window-background' }> =>
        event.type === 'window-background' && event.color === '#212529',
    );
    await app.control('clickAppMenuItem', 'Show Log');
    const shown = await app.waitForEvent(ofType('show-item-in-folder'));
    expect(shown.path).toBe(path.join(app.userDataDir, 'main.log'));
    expect(existsSync(shown.path)).toBe(true);
    expect(await readFile(shown.path, 'utf8')).toMatch(/Shelfwatch 0\.1\.0 started in development/);
  });

  it('remembers the requests of a check it quit in the middle of', async () => {
    const app = await start();
    const { status: first } = await addSearchAndCheck(app);
    // A wake opens the grace in which a request without network is retried, not failed.
    await app.emitPower('suspend');
    await app.emitPower('resume');
    await waitForStatus(app, (s) => s.state === 'idle' && s.last_check_at !== first.last_check_at);
    await app.control('setNoRouteFor', 60_000);
    const askedAt = Date.now();
    void app.invoke('watch:check-now').catch(() => undefined);
    await app.waitForEvent(
      (event): event is NetFetch =>
        event.type === 'net-fetch' && event.method === 'GET' && event.outcome === 'failed',
    );
    expect((await readStatus(app)).state).toBe('checking');
    await app.clickTrayItem('Quit Shelfwatch');
    await app.waitForEvent(ofType('quit'));
    // The request was written into the Mac's budget, shared with `shelfwatch watch`, before it
    // went: the next start (or a terminal watcher) counts it.
    const budget = JSON.parse(
      await readFile(path.join(app.userDataDir, 'request-budget.json'), 'utf8'),
    ) as { addresses: Record<string, { last_request_at: number | null }> };
    const lastRequestAt = budget.addresses[new URL(simulator.url).origin]?.last_request_at ?? 0;
    expect(lastRequestAt).toBeGreaterThanOrEqual(askedAt);
    expect(await readFile(path.join(app.userDataDir, 'main.log'), 'utf8')).toContain(
      'Quit during a check: what it had learned is saved',
    );
  });

  it('opens the search of the notification whose click launched it, and its store page after a relaunch', async () => {
    const userDataDir = await makeFolder();
    const first = await start({}, userDataDir);
    const { searchId } = await addSearchAndCheck(first);
    await stop(first);
    const launchedBy = (actionIndex?: number) => ({
      SHELFWATCH_FAKE_LAUNCH_NOTIFICATION: JSON.stringify({
        id: `search:${searchId}:1764000000000:R095`,
        title: 'iPhone 18 Pro is in stock',
        body: 'Today at Fifth Avenue',
        actionIndex,
      }),
    });
    const clicked = await start(launchedBy(), userDataDir);
    // The window opened on My Searches as the click arrived: it ends on the search.
    await expect
      .poll(() => new URL(clicked.page.url()).pathname, { timeout: 20_000 })
      .toBe(`/search/${searchId}`);
    await clicked.page.getByRole('heading', { name: 'iPhone 18 Pro' }).waitFor();
    await stop(clicked);
    const action = await start(launchedBy(1), userDataDir);
    const opened = await action.waitForEvent(ofType('open-external'));
    expect(opened.url).toMatch(/^https:\/\/www\.apple\.com\/retail\/[a-z0-9-]+\/$/);
  });

  it('clears the notification warning once macOS shows them again, without waiting for an alert', async () => {
    const app = await start({
      SHELFWATCH_FAKE_NOTIFICATION_ERROR: 'Notifications are not allowed for this application',
    });
    await app.page.getByRole('heading', { name: 'My Searches' }).waitFor();
    await app.invoke('notifications:show', { title: 'Test', body: 'Refused' });
    await waitForStatus(app, (s) => (s.notification_problem ?? null) !== null);
    // The user allows them in System Settings and comes back to the app.
    await app.control('setNotificationError', null);
    await app.control('emitApp', 'did-become-active');
    const shown = await app.waitForEvent(ofType('notification'));
    expect(shown.title).toBe('Notifications are on');
    await waitForStatus(app, (s) => (s.notification_problem ?? null) === null);
    await app.page.getByText("Notifications can't be shown").waitFor({ state: 'detached' });
  });
});
