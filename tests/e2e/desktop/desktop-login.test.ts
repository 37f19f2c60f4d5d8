// Logging in from the macOS app, end to end in the desktop harness against the whole stack:
// the app opens the embedded provider's login page in "the system browser" (a second
// Chromium page here), the loopback listener takes the code, and the account's searches
// appear beside the one on the Mac.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { startUpstreamSimulator, type RunningUpstreamSimulator } from '#server/simulator/index.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import type { FakeElectronEvent } from '#tests/helpers/fake-electron.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { HARNESS_ORIGIN, startDesktopHarness, type DesktopHarness } from './desktop-harness.ts';

const EMAIL = 'premium@example.com';
// A whole login through two browser pages and the provider: on a loaded 2-core CI machine it
// has taken longer than vitest's default 30 s (it takes about 6 s alone).
const FLOW_TIMEOUT_MS = 120_000;
const PASSWORD = 'a long premium password';

type Opened = Extract<FakeElectronEvent, { type: 'open-external' }>;

describe('logging in from the macOS app', () => {
  let stack: TestStack;
  let simulator: RunningUpstreamSimulator;
  let browser: Browser;
  let app: DesktopHarness;

  beforeAll(async () => {
    stack = await startTestStack();
    await stack.createUser({ email: EMAIL, password: PASSWORD, plan: 'best' });
    simulator = await startUpstreamSimulator({
      port: await getFreePort(),
      seed: 4,
      stores: STORE_SEEDS,
      models: PRODUCT_MODEL_SEEDS,
      countries: COUNTRY_SEEDS,
      now: Date.now,
    });
    browser = await launchBrowser();
    app = await startDesktopHarness({
      browser,
      upstreamUrl: simulator.url,
      env: { SHELFWATCH_SITE_URL: stack.baseUrl },
    });
  }, 180_000);

  afterAll(async () => {
    await app?.stop();
    await browser?.close();
    await simulator?.close();
    await stack?.stop();
  });

  it(
    'logs in through the browser and lists the account searches beside the local one',
    async () => {
      const { page } = app;
      await page.getByText('Add a search!').waitFor();
      const local = (await app.invoke('searches:create', {
        product_type: 'iphone16',
        store_id: 'R095',
      })) as { ok: boolean };
      expect(local.ok).toBe(true);

      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Login' })
        .click();
      await page.getByText('Finish logging in in your browser.').waitFor();
      const opened = await app.waitForEvent(
        (event): event is Opened =>
          event.type === 'open-external' && event.url.includes('/authorize'),
      );
      const tab = await browser.newPage();
      await tab.goto(opened.url);
      await tab.getByLabel('Email address').fill(EMAIL);
      await tab.getByLabel('Password').fill(PASSWORD);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByText("You're signed in to Shelfwatch").waitFor();
      await tab.close();
      await page.getByRole('button', { name: 'Account' }).waitFor();

      // The account's search is made through the app's main process, which holds the token.
      const remote = (await app.invoke('api:request', {
        method: 'POST',
        path: '/searches',
        body: { product_type: 'iphone16pro', store_id: 'R075' },
      })) as { ok: boolean; value: { status: number } };
      expect(remote.value.status).toBe(201);
      await page.goto(`${HARNESS_ORIGIN}/`);
      await page.getByText('Union Square').waitFor();
      await page.getByText('Fifth Avenue').waitFor();

      // After login the free limit is lifted: a second and a third local search are allowed.
      for (const product of ['iphone16plus', 'iphone16promax']) {
        const created = (await app.invoke('searches:create', {
          product_type: product,
          store_id: 'R095',
        })) as { ok: boolean };
        expect(created.ok).toBe(true);
      }
      await page.goto(`${HARNESS_ORIGIN}/account`);
      await expect
        .poll(() => page.getByLabel('Email').inputValue(), { timeout: 20_000 })
        .toBe(EMAIL);
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    'logs out: the refresh token is revoked and the app is signed out',
    async () => {
      const { page } = app;
      await page.goto(`${HARNESS_ORIGIN}/`);
      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('button', { name: 'Log out' }).click();
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Login' })
        .waitFor();
      const status = (await app.invoke('auth:status')) as { value: { is_signed_in: boolean } };
      expect(status.value.is_signed_in).toBe(false);
      // The two searches the account allowed stay saved but are no longer checked, and the
      // user is told so.
      const list = (await app.invoke('searches:list')) as { value: unknown[] };
      expect(list.value).toHaveLength(3);
      await expect
        .poll(async () => {
          const watch = (await app.invoke('watch:status')) as { value: { search_count: number } };
          return watch.value.search_count;
        })
        .toBe(1);
      await page.getByText('now watches only your first search').waitFor();
    },
    FLOW_TIMEOUT_MS,
  );

  it('keeps a log with the login in it but no token and no email address', async () => {
    // The access token the app sent to the API, as net.fetch carried it.
    const tokens = app.events.flatMap((event) =>
      event.type === 'net-fetch' && event.authorization?.startsWith('Bearer ') === true
        ? [event.authorization.slice('Bearer '.length)]
        : [],
    );
    expect(tokens.length).toBeGreaterThan(0);
    const log = await readFile(path.join(app.userDataDir, 'main.log'), 'utf8');
    expect(log).toContain('Logged in as [email]');
    expect(log).toContain('Logged out');
    for (const token of new Set(tokens)) expect(log).not.toContain(token);
    expect(log).not.toContain(EMAIL);
  });
});
