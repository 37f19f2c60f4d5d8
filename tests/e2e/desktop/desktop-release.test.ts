// What a release must get right on a real Mac, proven in the desktop harness with a fake of
// Electron that is no kinder than Electron 45: quitting closes the windows (and a window that
// refuses cancels the quit), Squirrel's quitAndInstall closes them before before-quit, macOS
// can refuse notifications, the network can be down after wake, and a login item starts the
// app without a window. Each app runs in its own harness with its own Mac.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
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
import {
  isTrayWith,
  ofType,
  readStatus,
  startUpdateFeed,
  waitForStatus,
} from './release-helpers.ts';

// A real Chromium page over the real main process: each test takes seconds alone, but while the
// rest of the suite loads a 2-core CI machine it has outlasted vitest's default 30 s.
describe('the macOS app as a release must behave', { timeout: 120_000 }, () => {
  let browser: Browser;
  let simulator: RunningUpstreamSimulator;
  const apps: DesktopHarness[] = [];
  const folders: string[] = [];

  const start = async (env: Record<string, string> = {}) => {
    const app = await startDesktopHarness({ browser, upstreamUrl: simulator.url, env });
    apps.push(app);
    // A failed test says what the page showed and what the app printed, not a bare timeout.
    onTestFailed(async () => {
      console.error(`The app as the test failed:\n${await app.describeState()}`);
    });
    return app;
  };
  const makeFolder = async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-mac-'));
    folders.push(folder);
    return folder;
  };

  beforeAll(async () => {
    simulator = await startUpstreamSimulator({
      port: await getFreePort(),
      seed: 28,
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

  it('Restart to Update quits and relaunches instead of hiding the window', async () => {
    const feed = await startUpdateFeed('0.2.0');
    try {
      const resources = await makeFolder();
      const home = await makeFolder();
      // What electron-builder writes into a packed app's Resources.
      await writeFile(
        path.join(resources, 'app-update.yml'),
        `provider: generic\nurl: ${feed.url}\nupdaterCacheDirName: shelfwatch-updater\n`,
      );
      const app = await start({
        SHELFWATCH_FAKE_PACKAGED: '1',
        SHELFWATCH_FAKE_RESOURCES: resources,
        // electron-updater keeps its download under ~/Library/Caches.
        HOME: home,
      });
      await app.waitForEvent(ofType('window-created'));
      await app.waitForEvent(isTrayWith('Restart to Update (0.2.0)'), 30_000);
      expect(feed.requests).toContain('/latest-mac.yml');
      expect(feed.requests).toContain('/Shelfwatch-0.2.0-universal-mac.zip');

      await app.clickTrayItem('Restart to Update (0.2.0)');
      await app.waitForEvent(ofType('update-installed'));
      expect(app.events).toContainEqual({ type: 'quit' });
      expect(app.events).toContainEqual(expect.objectContaining({ type: 'window-closed' }));
      expect(app.events).not.toContainEqual(expect.objectContaining({ type: 'quit-cancelled' }));
      expect(app.events).not.toContainEqual(
        expect.objectContaining({ type: 'window-call', method: 'hide' }),
      );
    } finally {
      await feed.close();
    }
  });

  it('closing the window keeps the app in the menu bar, Quit closes it and quits', async () => {
    const app = await start();
    await app.waitForEvent(ofType('window-created'));
    await app.waitForEvent(isTrayWith('Quit Shelfwatch'));
    expect(await app.control('closeWindow')).toBe(false);
    expect(app.events).toContainEqual(
      expect.objectContaining({ type: 'window-call', method: 'hide' }),
    );
    await app.clickTrayItem('Quit Shelfwatch');
    await app.waitForEvent(ofType('quit'));
    expect(app.events).toContainEqual(expect.objectContaining({ type: 'window-closed' }));
    expect(await app.control('countOpenWindows')).toBe(0);
  });

  it('a failed notification shows in the status line and the menu bar, and clears once one shows', async () => {
    const app = await start({
      SHELFWATCH_FAKE_NOTIFICATION_ERROR: 'Notifications are not allowed for this application',
    });
    const { page } = app;
    await page.getByRole('heading', { name: 'My Searches' }).waitFor();
    // The first-run step asks macOS now (with a test), not at the first stock alert.
    await page.getByRole('button', { name: 'Send a test notification' }).click();
    await app.waitForEvent(ofType('notification-failed'));
    const status = await waitForStatus(app, (s) => (s.notification_problem ?? null) !== null);
    expect(status.notification_problem).toBe('Notifications are not allowed for this application');
    await page
      .getByRole('status')
      .filter({ hasText: "Notifications can't be shown" })
      .filter({ hasText: 'System Settings > Notifications > Shelfwatch' })
      .waitFor();
    const tray = await app.waitForEvent(isTrayWith('Open Notification Settings…'));
    expect(tray.tooltip).toBe('Shelfwatch · Notifications are off');
    await app.clickTrayItem('Open Notification Settings…');
    await app.waitForEvent(
      (event): event is Extract<FakeElectronEvent, { type: 'open-external' }> =>
        event.type === 'open-external' && event.url.startsWith('x-apple.systempreferences:'),
    );

    await app.control('setNotificationError', null);
    await app.invoke('notifications:show', { title: 'Test', body: 'Again' });
    await app.waitForEvent(ofType('notification'));
    await waitForStatus(app, (s) => (s.notification_problem ?? null) === null);
    await page.getByText("Notifications can't be shown").waitFor({ state: 'detached' });
  });

  it('follows the system appearance: dark mode in the shared screens', async () => {
    const app = await start();
    const { page } = app;
    await page.getByRole('heading', { name: 'My Searches' }).waitFor();
    const readTheme = () =>
      page.evaluate(() => ({
        theme: document.documentElement.dataset.bsTheme,
        background: getComputedStyle(document.body).backgroundColor,
      }));
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(readTheme).toEqual({ theme: 'dark', background: 'rgb(33, 37, 41)' });
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(readTheme).toEqual({ theme: 'light', background: 'rgb(255, 255, 255)' });
  });

  it('wake waits for the network before checking and does not back off', async () => {
    const app = await start({ SHELFWATCH_UPSTREAM_SHAPE: 'pickup-message' });
    await app.page.getByRole('heading', { name: 'My Searches' }).waitFor();
    const created = (await app.invoke('searches:create', {
      product_type: 'iphone16pro',
      store_id: 'R095',
    })) as { ok: boolean };
    expect(created.ok).toBe(true);
    const first = await waitForStatus(app, (s) => s.state === 'idle' && s.last_check_at !== null);
    expect(first.is_failing, JSON.stringify(first)).toBe(false);

    await app.emitPower('suspend');
    await app.control('setOnline', false);
    await app.emitPower('resume');
    const waiting = await readStatus(app);
    expect(waiting.is_waiting_for_network).toBe(true);
    await app.waitForEvent(isTrayWith('Waiting for the network…'));
    // A check now would fail (Wi-Fi not back yet): none runs while the Mac is offline.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const stillWaiting = await readStatus(app);
    expect(stillWaiting.last_check_at).toBe(first.last_check_at);
    expect(stillWaiting.is_failing).toBe(false);

    await app.control('setOnline', true);
    const after = await waitForStatus(
      app,
      (s) => s.state === 'idle' && s.last_check_at !== first.last_check_at,
    );
    expect(after.is_waiting_for_network).toBe(false);
    expect(after.is_failing).toBe(false);
    // App Nap was held off for the due check and let go once it ended.
    const blockers = app.events.filter((event) => event.type === 'power-save-blocker');
    expect(blockers).toContainEqual({
      type: 'power-save-blocker',
      action: 'start',
      blockerType: 'prevent-app-suspension',
    });
    expect(await app.control('countPowerSaveBlockers')).toBe(0);
    expect(Date.parse(after.last_check_at ?? '')).toBeGreaterThan(
      Date.parse(first.last_check_at ?? ''),
    );
  });

  it('started at login, the app keeps its window closed until asked, and trusts what macOS reports', async () => {
    const app = await start({
      SHELFWATCH_FAKE_OPENED_AT_LOGIN: '1',
      SHELFWATCH_FAKE_LOGIN_ITEM_STATUS: 'enabled',
    });
    await app.waitForEvent(isTrayWith('Open Shelfwatch'));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(app.events.filter((event) => event.type === 'window-created')).toHaveLength(0);

    await app.clickTrayItem('Open Shelfwatch');
    await app.waitForEvent(ofType('window-created'));
    await app.page.getByRole('heading', { name: 'My Searches' }).waitFor();
    // macOS says the login item is on: the saved switch follows it.
    const settings = (await app.invoke('settings:get')) as {
      value: { launch_at_login: boolean };
    };
    expect(settings.value.launch_at_login).toBe(true);

    // Menu bar only: the Dock icon goes when the setting is turned off.
    const saved = (await app.invoke('settings:update', { show_dock_icon: false })) as {
      ok: boolean;
    };
    expect(saved.ok).toBe(true);
    await app.waitForEvent(
      (event): event is Extract<FakeElectronEvent, { type: 'dock' }> =>
        event.type === 'dock' && event.action === 'hide',
    );
  });
});
