import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { PHONE_VIEWPORT } from './page-weight.ts';
import { ensureWebsiteBuilt } from './site-helpers.ts';

// Issue 30 (LCP on phones): the landing page paints from CSS inlined in its <head> with the
// site's stylesheet held back at the end of <body>, and the app's scripts load after the first
// paint. (landing-styles.test.ts: the stylesheet stays held back on the landing page.)

const HEADLINE = 'Stop waiting weeks for Apple products to ship.';

let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  await ensureWebsiteBuilt();
  stack = await startTestStack();
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the landing page’s first paint', { timeout: 60_000 }, () => {
  it('inlines the CSS its markup needs and holds the stylesheet back at the end of the body', async () => {
    const html = await (await fetch(`${stack.baseUrl}/`)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    const style = /<style>([\s\S]*?)<\/style>/.exec(head)?.[1] ?? '';
    expect(style).toContain('.navbar');
    expect(style).toContain('.btn-primary');
    // The dark theme is switched on by a script before the first paint: its rules are kept.
    expect(style).toContain('[data-bs-theme=dark]');
    expect(head).not.toContain('rel="stylesheet"');
    expect(html).toMatch(
      /<link rel="stylesheet"[^>]*href="\/assets\/[^"]+\.css" disabled data-site-stylesheet>\s*<\/body>/,
    );
  });

  it('paints styled while the app’s code is held back, then hydrates', async () => {
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    try {
      const page = await context.newPage();
      let releaseAssets: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (releaseAssets = resolve));
      const heldUrls: string[] = [];
      await page.route(/\/assets\/.+\.(css|js)$/, async (route) => {
        const url = route.request().url();
        // The entry script stays free; everything else the app needs waits.
        if (!/\/assets\/index-[^/]+\.js$/.test(url)) {
          heldUrls.push(url);
          await held;
        }
        await route.continue();
      });
      await page.goto(`${stack.baseUrl}/`, { waitUntil: 'commit' });
      const headline = page.getByRole('heading', { name: HEADLINE });
      await headline.waitFor();
      await page.waitForFunction(() => performance.getEntriesByType('paint').length > 0);
      // Painted from the inlined CSS: the navbar is already dark, the Login button a button.
      const navbarBackground = await page
        .locator('nav.navbar')
        .evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(navbarBackground).toBe('rgb(33, 37, 41)');
      expect(heldUrls.some((url) => url.endsWith('.js'))).toBe(true);
      releaseAssets();
      // Then the app hydrates the page and loads the example inventory over its skeleton.
      await page.waitForFunction(() => document.querySelector('.placeholder-glow') === null);
      await page.waitForLoadState('networkidle');
      expect(await headline.count()).toBe(1);
      expect(heldUrls.some((url) => url.endsWith('.css'))).toBe(false);
    } finally {
      await context.close();
    }
  });
});
