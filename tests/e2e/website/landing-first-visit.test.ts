import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { measurePageJs, PHONE_VIEWPORT } from './page-weight.ts';
import { ensureWebsiteBuilt } from './site-helpers.ts';

const HEADLINE = 'Stop waiting weeks for Apple products to ship.';
// Install settings with characters HTML must escape: the server fills them into the
// pre-rendered page, and the app must hydrate that page without a difference.
const SETTINGS = {
  SUPPORT_EMAIL: 'help@studio.example',
  SUPPORT_END_DATE: '2026-01-31',
  MAKER_NAME: 'Tom & Jerry <Apps>',
  MAKER_URL: 'https://studio.example/?a=1&b=2',
};
const LANDING_JS_BUDGET_KB = 120;

let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  await ensureWebsiteBuilt();
  stack = await startTestStack(SETTINGS);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the landing page on a first visit', { timeout: 60_000 }, () => {
  it('is readable with JavaScript off: headline, buttons and this install’s settings', async () => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: PHONE_VIEWPORT,
    });
    try {
      const page = await context.newPage();
      const response = await page.goto(`${stack.baseUrl}/`);
      expect(response?.headers()['content-type']).toContain('text/html');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(HEADLINE);
      const main = page.getByRole('main');
      expect(await main.getByRole('button', { name: 'Sign up' }).isDisabled()).toBe(true);
      expect(await main.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe(
        '/force_login',
      );
      expect(
        await main.getByRole('link', { name: 'Download for macOS' }).getAttribute('href'),
      ).toBe('/download');
      expect(await page.getByRole('img', { name: /in-stock alert/ }).isVisible()).toBe(true);
      const banner = page.getByRole('region', { name: 'Support notice' });
      expect(await banner.textContent()).toContain(
        'support for the product ends on January 31st, 2026. Please contact support at help@studio.example',
      );
      const maker = page.getByRole('contentinfo').getByRole('link', { name: SETTINGS.MAKER_NAME });
      expect(await maker.getAttribute('href')).toBe(SETTINGS.MAKER_URL);
      expect(await page.title()).toBe('Apple Store stock alerts | Shelfwatch');
      expect(await page.content()).not.toContain('__SHELFWATCH_');
    } finally {
      await context.close();
    }
  });

  it('is hydrated, not drawn again: no mismatch, the same heading element, a working Login', async () => {
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    try {
      const page = await context.newPage();
      const warnings: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'warning' || message.type() === 'error')
          warnings.push(message.text());
      });
      // Hold the app's code back until the pre-rendered heading has been marked.
      let releaseScripts: () => void = () => undefined;
      const scriptsReleased = new Promise<void>((resolve) => (releaseScripts = resolve));
      await page.route('**/assets/*.js', async (route) => {
        await scriptsReleased;
        await route.continue();
      });
      await page.goto(`${stack.baseUrl}/`, { waitUntil: 'commit' });
      await page.getByRole('heading', { name: HEADLINE }).waitFor();
      await page.evaluate(() => {
        (document.querySelector('h1') as HTMLElement & { isPrerendered?: boolean }).isPrerendered =
          true;
      });
      releaseScripts();
      // The example inventory arrives only from the running app.
      await page.getByRole('heading', { name: 'Country support' }).waitFor();
      expect(
        await page.evaluate(
          () =>
            (document.querySelector('h1') as HTMLElement & { isPrerendered?: boolean })
              .isPrerendered,
        ),
      ).toBe(true);
      expect(warnings.filter((text) => /hydrat|Pre-rendered/i.test(text))).toEqual([]);
      await page.getByRole('main').getByRole('link', { name: 'Login' }).click();
      await page.waitForURL((url) => url.origin === new URL(stack.issuer).origin);
    } finally {
      await context.close();
    }
  });

  it('the navbar Login is a link to the sign-in page that works before scripts load', async () => {
    // Wide enough for the navbar's links to show: collapsed, they would wait for the toggle's
    // script.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto(`${stack.baseUrl}/`, { waitUntil: 'commit' });
      const login = page.getByRole('navigation', { name: 'Main' }).getByRole('link', {
        name: 'Login',
      });
      expect(await login.getAttribute('href')).toBe('/force_login');
      expect(
        await page.evaluate(() =>
          Object.keys(document.querySelector('h1') ?? {}).some((key) => key.startsWith('__react')),
        ),
      ).toBe(false);
      // The next page gets its scripts again.
      await page.unroute('**/assets/*.js');
      await login.click();
      await page.waitForURL((url) => url.origin === new URL(stack.issuer).origin);
      await page.getByLabel('Password').waitFor();
    } finally {
      await context.close();
    }
  });

  it('reaches the sign-in page when Login is clicked before hydration', async () => {
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    try {
      const page = await context.newPage();
      // The landing page's scripts never arrive, as on a phone whose slow network has not
      // delivered them yet: nothing can handle the click but the link itself.
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto(`${stack.baseUrl}/`, { waitUntil: 'commit' });
      const login = page.getByRole('main').getByRole('link', { name: 'Login' });
      await login.waitFor();
      // React marks the nodes it hydrates with __reactFiber$… keys: none here.
      expect(
        await page.evaluate(() =>
          Object.keys(document.querySelector('h1') ?? {}).some((key) => key.startsWith('__react')),
        ),
      ).toBe(false);
      // The next page gets its scripts again.
      await page.unroute('**/assets/*.js');
      await login.click();
      await page.waitForURL((url) => url.origin === new URL(stack.issuer).origin);
      await page.getByLabel('Password').waitFor();
    } finally {
      await context.close();
    }
  });

  it(`downloads at most ${LANDING_JS_BUDGET_KB} KB of JavaScript (gzip -9), neither axios nor the login SDK`, async () => {
    const weight = await measurePageJs(browser, `${stack.baseUrl}/`, async (page) => {
      await page.getByRole('heading', { name: 'Country support' }).waitFor();
    });
    const files = weight.scripts.map((script) => script.path);
    expect(files.filter((file) => /axios|auth0/.test(file))).toEqual([]);
    expect(weight.gzipKb).toBeLessThanOrEqual(LANDING_JS_BUDGET_KB);
  });
});
