// The real app on a Mac, run by the release workflow's smoke job (.github/workflows/desktop.yml):
// the built bundles in the real, unfused Electron binary driven by Playwright's Electron
// support, watching the upstream simulator. It proves what the Linux harness cannot: the
// window opens in Electron, a local search is added through the real preload, the check's
// requests go through Electron's net.fetch, the simulator flips stock and the app asks macOS
// for a notification. Skipped unless SHELFWATCH_MAC_SMOKE=1
// on macOS (Electron's binary exists only there).
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import { startUpstreamSimulator, type RunningUpstreamSimulator } from '#server/simulator/index.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { ensureDesktopBuilt } from './desktop-harness.ts';

const isEnabled = process.platform === 'darwin' && process.env.SHELFWATCH_MAC_SMOKE === '1';
const rootDir = path.resolve(import.meta.dirname, '..', '..', '..');
const STORE_ID = 'R095';

type ShownNotification = { title: string; body: string };
/** The preload's bridge as the page sees it (window.shelfwatch). */
type Bridge = {
  desktop: {
    searches: { create: (input: unknown) => Promise<{ ok: boolean }> };
    watch: { checkNow: () => Promise<unknown> };
  };
};

describe.skipIf(!isEnabled)('the real app on macOS (smoke)', () => {
  let simulator: RunningUpstreamSimulator;
  let app: ElectronApplication;
  let window: Page;
  let userData: string;

  beforeAll(async () => {
    await ensureDesktopBuilt();
    simulator = await startUpstreamSimulator({
      port: await getFreePort(),
      seed: 45,
      stores: STORE_SEEDS,
      models: PRODUCT_MODEL_SEEDS,
      countries: COUNTRY_SEEDS,
      now: Date.now,
    });
    userData = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-smoke-'));
    // The electron package's main answers the path of its binary.
    const electronPath = String(createRequire(import.meta.url)('electron'));
    app = await _electron.launch({
      executablePath: electronPath,
      args: [rootDir, `--user-data-dir=${userData}`],
      env: {
        ...process.env,
        SHELFWATCH_UPSTREAM_URL: simulator.url,
        SHELFWATCH_UPSTREAM_SHAPE: 'pickup-message',
      },
    });
    window = await app.firstWindow();
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await simulator?.close();
    if (userData !== undefined) await rm(userData, { recursive: true, force: true });
  });

  it('opens the window on app:// with My Searches', async () => {
    expect(window.url()).toBe('app://shelfwatch/');
    await window.getByRole('heading', { name: 'My Searches' }).waitFor();
  });

  it('adds a local search, sees the simulator flip stock and asks macOS for a notification', async () => {
    const catalog = createDesktopCatalog();
    const product = catalog
      .listProducts()
      .find((candidate) => catalog.listModels(candidate.product_id, 'US').length > 0);
    const model =
      product === undefined ? undefined : catalog.listModels(product.product_id, 'US')[0];
    if (product === undefined || model === undefined)
      throw new Error('The catalog has no US models');
    // Count what the app hands to macOS (the Notification class of the real main process).
    await app.evaluate(({ Notification }) => {
      const shown: ShownNotification[] = [];
      (globalThis as unknown as { __shown: ShownNotification[] }).__shown = shown;
      // Called below with the notification as `this`, so the unbound method is what is wanted.
      // eslint-disable-next-line @typescript-eslint/unbound-method
      const original = Notification.prototype.show;
      Notification.prototype.show = function show(this: Electron.Notification) {
        shown.push({ title: this.title, body: this.body });
        original.call(this);
      };
    });
    // Every Apple request of the main process goes through Chromium's stack (net.fetch): the
    // app looks net.fetch up at each call, so wrapping it here sees the check's requests.
    await app.evaluate(({ net }) => {
      const asked: string[] = [];
      (globalThis as unknown as { __netFetched: string[] }).__netFetched = asked;
      const original = net.fetch.bind(net);
      net.fetch = (input, init) => {
        asked.push(typeof input === 'string' ? input : input.url);
        return original(input, init);
      };
    });
    const setShelf = async (status: string) => {
      const response = await fetch(`${simulator.url}/_sim/stock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ store_id: STORE_ID, part_number: model.part_number, status }),
      });
      expect(response.status).toBe(200);
    };
    await setShelf('unavailable');
    const created = await window.evaluate(
      async ([productType, storeId, partNumber]) =>
        await (globalThis as unknown as { shelfwatch: Bridge }).shelfwatch.desktop.searches.create({
          product_type: productType,
          store_id: storeId,
          include_nearby_store_results: false,
          product_models: [{ part_number: partNumber, is_preferred: true }],
        }),
      [product.product_id, STORE_ID, model.part_number] as const,
    );
    expect(created.ok).toBe(true);
    await window.evaluate(
      async () =>
        await (globalThis as unknown as { shelfwatch: Bridge }).shelfwatch.desktop.watch.checkNow(),
    );
    await setShelf('available');
    await window.evaluate(
      async () =>
        await (globalThis as unknown as { shelfwatch: Bridge }).shelfwatch.desktop.watch.checkNow(),
    );
    const readShown = () =>
      app.evaluate(() => (globalThis as unknown as { __shown: ShownNotification[] }).__shown);
    await expect
      .poll(async () => (await readShown()).length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    const [first] = await readShown();
    expect(first?.title).toBe(`${model.display_name} is in stock`);
    const fetched = await app.evaluate(
      () => (globalThis as unknown as { __netFetched: string[] }).__netFetched,
    );
    expect(fetched.some((url) => url.startsWith(`${simulator.url}/`))).toBe(true);
  });
});
