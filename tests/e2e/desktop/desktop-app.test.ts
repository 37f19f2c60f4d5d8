// A person's first session with the macOS app, end to end in the desktop harness: the real
// main bundle (fake Electron), the real preload and renderer in Chromium, the real upstream
// client polling the simulator over HTTP.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import { FREE_LIMIT_MESSAGE } from '#shared/desktop/local-search.ts';
import { startUpstreamSimulator, type RunningUpstreamSimulator } from '#server/simulator/index.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import type { FakeElectronEvent } from '#tests/helpers/fake-electron.ts';
import { chooseOption } from '../website/site-helpers.ts';
import { startDesktopHarness, type DesktopHarness } from './desktop-harness.ts';

const STORE_ID = 'R095';
const PRODUCT_ID = 'iphone18pro';
const [PREFERRED] = createDesktopCatalog().listModels(PRODUCT_ID, 'US');

type Notified = Extract<FakeElectronEvent, { type: 'notification' }>;
const isNotification = (event: FakeElectronEvent): event is Notified =>
  event.type === 'notification';

/** Sets a shelf in the simulator through its control API. */
async function setShelf(simulator: RunningUpstreamSimulator, status: string): Promise<void> {
  const response = await fetch(`${simulator.url}/_sim/stock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ store_id: STORE_ID, part_number: PREFERRED.part_number, status }),
  });
  expect(response.status).toBe(200);
}

/** Waits until the app's watch loop is idle after a check that ended after `since`. */
async function waitForCheckAfter(app: DesktopHarness, since: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const result = (await app.invoke('watch:status')) as {
      ok: boolean;
      value: { state: string; last_check_at: string | null };
    };
    const last = result.value.last_check_at;
    if (result.value.state === 'idle' && last !== null && Date.parse(last) >= since) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('The app did not finish a check in time');
}

// A real Chromium page over the real main process: each test takes seconds alone, but while the
// rest of the suite loads a 2-core CI machine it has outlasted vitest's default 30 s.
describe('the macOS app in the desktop harness', { timeout: 120_000 }, () => {
  let browser: Browser;
  let simulator: RunningUpstreamSimulator;
  let app: DesktopHarness;

  beforeAll(async () => {
    simulator = await startUpstreamSimulator({
      port: await getFreePort(),
      seed: 11,
      stores: STORE_SEEDS,
      models: PRODUCT_MODEL_SEEDS,
      countries: COUNTRY_SEEDS,
      now: Date.now,
    });
    browser = await launchBrowser();
    app = await startDesktopHarness({ browser, upstreamUrl: simulator.url });
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await browser?.close();
    await simulator?.close();
  });

  it('opens one window with the security options and My Searches showing "Add a search!"', async () => {
    const created = await app.waitForEvent(
      (event): event is Extract<FakeElectronEvent, { type: 'window-created' }> =>
        event.type === 'window-created',
    );
    expect(created.options).toMatchObject({
      width: 1100,
      height: 720,
      webPreferences: {
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
      },
    });
    const loaded = await app.waitForEvent(
      (event): event is Extract<FakeElectronEvent, { type: 'load-url' }> =>
        event.type === 'load-url',
    );
    expect(loaded.url).toBe('app://shelfwatch/');
    await app.page.getByRole('heading', { name: 'My Searches' }).waitFor();
    await app.page.getByText('Add a search!').waitFor();
    // Marketing pages are not part of the app; its own settings are.
    await expect(app.page.getByRole('link', { name: 'Pricing' }).count()).resolves.toBe(0);
    await app.page.getByRole('link', { name: 'Settings' }).waitFor();
  });

  it('creates the free search in the same modal as the website and refuses a second', async () => {
    await setShelf(simulator, 'unavailable');
    const { page } = app;
    await page.getByRole('button', { name: 'Create new search' }).first().click();
    await chooseOption(page, 'Select a product', 'iPhone 18 Pro', /^iPhone 18 Pro$/);
    await chooseOption(page, 'Select a store', 'Fifth Avenue', /Fifth Avenue/);
    await page.getByRole('button', { name: 'Create search' }).click();
    await page.waitForURL(/\/search\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'iPhone 18 Pro' }).waitFor();

    await page.getByRole('link', { name: 'My Searches' }).first().click();
    await page.getByRole('button', { name: 'Create new search' }).first().click();
    await chooseOption(page, 'Select a product', 'iPhone 16', /^iPhone 16$/);
    await chooseOption(page, 'Select a store', 'Fifth Avenue', /Fifth Avenue/);
    await page.getByRole('button', { name: 'Create search' }).click();
    await page.getByText(FREE_LIMIT_MESSAGE).waitFor();
    // The dialog's Login (the navbar's is a link).
    await page.getByRole('dialog').getByRole('button', { name: 'Login' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    // The limit holds in the main process, not only in the window.
    const refused = (await app.invoke('searches:create', {
      product_type: 'iphone16',
      store_id: STORE_ID,
    })) as { ok: boolean; error?: { code: string } };
    expect(refused).toMatchObject({ ok: false, error: { code: 'free_search_limit' } });
    const list = (await app.invoke('searches:list')) as { value: unknown[] };
    expect(list.value).toHaveLength(1);
  });

  it('raises exactly one native notification for a flip, whose click opens that search', async () => {
    const { page } = app;
    await page.getByRole('link', { name: 'View inventory' }).click();
    await page.waitForURL(/\/search\//);
    const searchPath = new URL(page.url()).pathname;
    // The settings controls are controlled by the saved search: they flip once the save answers.
    const preferred = page.getByRole('checkbox', { name: PREFERRED.display_name });
    await preferred.click();
    await expect.poll(() => preferred.isChecked()).toBe(true);
    const nearby = page.getByRole('checkbox', { name: 'Include nearby store results' });
    await nearby.click();
    await expect.poll(() => nearby.isChecked()).toBe(false);
    const settledAt = Date.now();
    await app.clickTrayItem('Check Now');
    await waitForCheckAfter(app, settledAt);
    expect(app.events.filter(isNotification)).toHaveLength(0);

    await setShelf(simulator, 'available');
    const flippedAt = Date.now();
    await app.clickTrayItem('Check Now');
    const notified = await app.waitForEvent(isNotification);
    console.log(`Simulator flip to native notification: ${Date.now() - flippedAt} ms (Check Now)`);
    expect(notified.title).toBe(`${PREFERRED.display_name} is in stock`);

    await page.goto('http://shelfwatch.localhost/settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await app.clickNotification(notified.id);
    await page.waitForURL((url) => url.pathname === searchPath);
    await page.getByRole('heading', { name: 'iPhone 18 Pro' }).waitFor();
    expect(app.events).toContainEqual(
      expect.objectContaining({ type: 'window-call', method: 'focus' }),
    );

    // Another check with the shelf unchanged says nothing more.
    const before = Date.now();
    await app.clickTrayItem('Check Now');
    await waitForCheckAfter(app, before);
    expect(app.events.filter(isNotification)).toHaveLength(1);
  });

  it('pauses while the Mac sleeps and checks at once on wake', async () => {
    await app.emitPower('suspend');
    const paused = (await app.invoke('watch:status')) as { value: { state: string } };
    expect(paused.value.state).toBe('paused');
    const wokeAt = Date.now();
    await app.emitPower('resume');
    await waitForCheckAfter(app, wokeAt);
  });

  it('keeps the window on the app: navigation denied, only allowed https links to the browser, foreign frames refused', async () => {
    const away = await app.tryNavigation('https://example.com/phish');
    expect(away).toEqual({ isNavigationPrevented: true, windowOpen: { action: 'deny' } });
    const store = await app.tryNavigation('https://www.apple.com/retail/fifthavenue/');
    expect(store.isNavigationPrevented).toBe(true);
    await app.waitForEvent(
      (event): event is Extract<FakeElectronEvent, { type: 'open-external' }> =>
        event.type === 'open-external' && event.url === 'https://www.apple.com/retail/fifthavenue/',
    );
    const local = await app.tryNavigation('file:///etc/passwd');
    expect(local.isNavigationPrevented).toBe(true);
    const refusedUrls = [
      'http://www.apple.com/',
      'https://example.com/',
      'https://apple.com.evil.example/',
    ];
    for (const url of refusedUrls) {
      const refused = await app.invoke('shell:open-external', { url }, 'app://shelfwatch/');
      expect(refused, url).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    const opened = await app.invoke(
      'shell:open-external',
      { url: 'https://shelfwatch.app/support' },
      'app://shelfwatch/',
    );
    expect(opened).toEqual({ ok: true, value: null });
    const external = app.events.flatMap((event) =>
      event.type === 'open-external' ? [event.url] : [],
    );
    expect(external).toContain('https://shelfwatch.app/support');
    for (const url of [...refusedUrls, 'https://example.com/phish', 'file:///etc/passwd']) {
      expect(external).not.toContain(url);
    }
    const foreign = await app.invoke('searches:list', undefined, 'https://example.com/');
    expect(foreign).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
  });
});
