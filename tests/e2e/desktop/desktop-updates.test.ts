// Updates as they fail on a real Mac, in the desktop harness: Squirrel.Mac refusing to install
// (no write permission), and an app run from the disk image or Downloads that Squirrel cannot
// replace at all (read-only volume). The app is packed, so it reads no SHELFWATCH_* variable:
// its feed is the packed app-update.yml, and the fake routes www.apple.com to the simulator.
import { mkdtemp, rm } from 'node:fs/promises';
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
  preparePackedMac,
  startUpdateFeed,
  waitForStatus,
} from './release-helpers.ts';

type Dialog = Extract<FakeElectronEvent, { type: 'dialog' }>;
type Notified = Extract<FakeElectronEvent, { type: 'notification' }>;

const isDialog =
  (message: string) =>
  (event: FakeElectronEvent): event is Dialog =>
    event.type === 'dialog' && event.message === message;
const INSTALL_ERROR = 'ShipIt could not replace the app: Permission denied';

describe('updates that cannot be installed', { timeout: 120_000 }, () => {
  let browser: Browser;
  let simulator: RunningUpstreamSimulator;
  const apps = new Set<DesktopHarness>();
  const folders: string[] = [];

  const makeFolder = async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-update-'));
    folders.push(folder);
    return folder;
  };
  const start = async (env: Record<string, string>, userDataDir?: string) => {
    const app = await startDesktopHarness({
      browser,
      upstreamUrl: simulator.url,
      userDataDir,
      env: { ...env, SHELFWATCH_FAKE_APPLE_URL: simulator.url },
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

  beforeAll(async () => {
    simulator = await startUpstreamSimulator({
      port: await getFreePort(),
      seed: 44,
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

  it('a failed install, started from the update-ready notification, returns to watching with a visible error', async () => {
    const feed = await startUpdateFeed('0.2.0');
    try {
      const app = await start({
        ...(await preparePackedMac(feed.url, makeFolder)),
        SHELFWATCH_FAKE_INSTALL_ERROR: INSTALL_ERROR,
      });
      await app.page.getByRole('heading', { name: 'My Searches' }).waitFor();
      const created = (await app.invoke('searches:create', {
        product_type: 'iphone16pro',
        store_id: 'R095',
      })) as { ok: boolean };
      expect(created.ok).toBe(true);
      const checked = await waitForStatus(
        app,
        (s) => s.state === 'idle' && s.last_check_at !== null,
      );
      expect(checked.is_failing, JSON.stringify(checked)).toBe(false);
      await app.waitForEvent(isTrayWith('Restart to Update (0.2.0)'), 30_000);

      // The notification's click asks before it restarts; "Restart to Update" is chosen.
      const notified = await app.waitForEvent(
        (event): event is Notified =>
          event.type === 'notification' && event.title === 'Shelfwatch 0.2.0 is ready',
      );
      await app.control('setDialogResponse', 0);
      await app.clickNotification(notified.id);
      await app.waitForEvent(isDialog('Install Shelfwatch 0.2.0 now?'));

      // Squirrel closed the window on its way, then refused: the app did not quit.
      const failed = await waitForStatus(app, (s) => (s.update_problem ?? null) !== null);
      expect(failed.update_problem).toBe(`Version 0.2.0 couldn't be installed: ${INSTALL_ERROR}`);
      expect(app.events).toContainEqual(expect.objectContaining({ type: 'window-closed' }));
      expect(app.events).not.toContainEqual({ type: 'quit' });
      expect(app.events).not.toContainEqual(expect.objectContaining({ type: 'update-installed' }));
      // Watching again: a next check is planned and Check Now checks.
      expect(failed.state).toBe('idle');
      expect(failed.next_check_at).not.toBeNull();
      const tray = await app.waitForEvent(isTrayWith('Update 0.2.0 couldn’t be installed'));
      expect(tray.labels).not.toContain('Restart to Update (0.2.0)');
      expect(tray.labels).not.toContain('Move to Applications…');
      const before = Date.now();
      await app.clickTrayItem('Check Now');
      await waitForStatus(
        app,
        (s) => s.state === 'idle' && Date.parse(s.last_check_at ?? '') >= before,
      );
      // The window came back with the reason in the status line.
      expect(app.events.filter(ofType('window-created'))).toHaveLength(2);
      await app.page
        .getByRole('status')
        .filter({ hasText: "Version 0.2.0 couldn't be installed" })
        .waitFor();
    } finally {
      await feed.close();
    }
  });

  it('outside Applications says why it cannot update, offers the move again for the new version, and not more than once a day', async () => {
    const feed = await startUpdateFeed('0.2.0');
    try {
      const env = {
        ...(await preparePackedMac(feed.url, makeFolder)),
        SHELFWATCH_FAKE_IN_APPLICATIONS: '0',
      };
      const userDataDir = await makeFolder();
      const app = await start(env, userDataDir);
      await app.page.getByRole('heading', { name: 'My Searches' }).waitFor();
      // "Not Now" (the fake's answer) at launch...
      const launchOffer = await app.waitForEvent(
        isDialog('Move Shelfwatch to your Applications folder?'),
      );
      expect(launchOffer.response).toBe(1);
      // ...and Squirrel.Mac refuses the read-only volume: the move is offered again, saying why.
      await app.waitForEvent(
        isDialog("Version 0.2.0 of Shelfwatch can't be installed here"),
        30_000,
      );
      const tray = await app.waitForEvent(isTrayWith('Move to Applications…'));
      expect(tray.labels).toContain('Update 0.2.0 needs Shelfwatch in Applications');
      const restartShown = app.events.some(
        (event) =>
          event.type === 'tray-menu' && event.labels.some((label) => label.startsWith('Restart')),
      );
      expect(restartShown).toBe(false);
      const blocked = await waitForStatus(app, (s) => (s.update_problem ?? null) !== null);
      expect(blocked.update_problem).toMatch(
        /Move it to the Applications folder to install version 0\.2\.0/,
      );
      await app.page.getByRole('status').filter({ hasText: 'Applications folder' }).waitFor();

      // Asked from the menu bar, the move happens whatever was answered before.
      await app.control('setDialogResponse', 0);
      await app.clickTrayItem('Move to Applications…');
      await app.waitForEvent(ofType('move-to-applications'));
      await stop(app);

      // The same day, the next launch finds the update still blocked and keeps quiet about it.
      const again = await start(env, userDataDir);
      await again.page.getByRole('heading', { name: 'My Searches' }).waitFor();
      await again.waitForEvent(isTrayWith('Move to Applications…'), 30_000);
      await waitForStatus(again, (s) => (s.update_problem ?? null) !== null);
      expect(again.events.filter(ofType('dialog'))).toEqual([]);
      expect(again.events.filter(ofType('notification'))).toEqual([]);
    } finally {
      await feed.close();
    }
  });
});
