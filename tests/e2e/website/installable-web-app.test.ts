import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH, launchBrowser } from '#tests/helpers/browser.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { PUSH_TEXTS } from '#renderer/components/account/browser-notifications-switch.tsx';
import { chooseOption, ensureWebsiteBuilt, signIn } from './site-helpers.ts';

// Issue 29, item 1: the site is an installable web app (iOS delivers web push only to a site
// added to the Home Screen). Lighthouse 12 and later dropped its installability audit; the one
// it ran before asked Chromium itself (DevTools' Page.getInstallabilityErrors), which this
// file does against the real server and build.

const USER = {
  email: 'homescreen@example.com',
  password: 'add me to the home screen',
  plan: 'best' as const,
};
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';
const IPHONE_VIEWPORT = { width: 390, height: 844 };

type Manifest = {
  id: string;
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  theme_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
};

let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  await ensureWebsiteBuilt();
  stack = await startTestStack();
  await stack.createUser(USER);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Fetches a path of the site and answers its status, type and body. */
async function fetchSite(pathname: string) {
  const response = await fetch(`${stack.baseUrl}${pathname}`);
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: Buffer.from(await response.arrayBuffer()),
  };
}

describe('the installable web app', { timeout: 90_000 }, () => {
  it('serves a manifest with name, short name, id, start URL, standalone display and theme colour', async () => {
    const { status, type, body } = await fetchSite('/manifest.webmanifest');
    expect(status).toBe(200);
    expect(type).toContain('application/manifest+json');
    const manifest = JSON.parse(body.toString('utf8')) as Manifest;
    expect(manifest).toMatchObject({
      id: '/',
      name: 'Shelfwatch',
      short_name: 'Shelfwatch',
      start_url: '/',
      display: 'standalone',
      theme_color: '#0d6efd',
    });
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`).sort()).toEqual([
      '192x192 any',
      '192x192 maskable',
      '512x512 any',
      '512x512 maskable',
    ]);
  });

  it('serves every icon the manifest names as a PNG of the size it states, and the Apple touch icon', async () => {
    const { body } = await fetchSite('/manifest.webmanifest');
    const manifest = JSON.parse(body.toString('utf8')) as Manifest;
    const icons = [
      ...manifest.icons,
      { src: '/apple-touch-icon.png', sizes: '180x180', type: 'image/png', purpose: 'apple' },
    ];
    for (const icon of icons) {
      const file = await fetchSite(icon.src);
      expect(file.status, icon.src).toBe(200);
      expect(file.type, icon.src).toContain('image/png');
      const metadata = await sharp(file.body).metadata();
      expect(`${metadata.format} ${metadata.width}x${metadata.height}`, icon.src).toBe(
        `png ${icon.sizes}`,
      );
      // Maskable and Apple icons fill their square: no transparent corner for the OS to show.
      if (icon.purpose !== 'any') {
        const corner = await sharp(file.body)
          .extract({ left: 0, top: 0, width: 1, height: 1 })
          .raw()
          .toBuffer();
        expect([...corner], icon.src).toEqual([13, 110, 253, 255]);
      }
    }
  });

  it('links the manifest, the Apple touch icon and the Home Screen meta tags from every page', async () => {
    for (const pathname of [
      '/',
      '/plans',
      '/support',
      '/download',
      '/search/unknown',
      '/account',
    ]) {
      const { status, body } = await fetchSite(pathname);
      expect(status, pathname).toBe(200);
      const html = body.toString('utf8');
      expect(html, pathname).toContain('<link rel="manifest" href="/manifest.webmanifest"');
      expect(html, pathname).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png"');
      expect(html, pathname).toContain(
        '<meta name="apple-mobile-web-app-title" content="Shelfwatch"',
      );
      expect(html, pathname).toContain('<meta name="theme-color" content="#0d6efd"');
    }
  });

  it('passes Chromium installability checks on the landing page', async () => {
    // A browser profile of its own: Chromium never offers to install from an incognito window,
    // which every other context of Playwright is.
    const profileDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-install-'));
    const context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    });
    try {
      const page = await context.newPage();
      await page.goto(`${stack.baseUrl}/`);
      await page
        .getByRole('heading', { name: 'Stop waiting weeks for Apple products to ship.' })
        .waitFor();
      const session = await context.newCDPSession(page);
      const manifest = (await session.send('Page.getAppManifest')) as {
        url: string;
        errors: { message: string }[];
      };
      expect(manifest.url).toBe(`${stack.baseUrl}/manifest.webmanifest`);
      expect(manifest.errors).toEqual([]);
      // The manifest and its icons load asynchronously: ask until Chromium has looked at them.
      let errors: { errorId: string }[] = [];
      for (let attempt = 0; attempt < 20; attempt += 1) {
        ({ installabilityErrors: errors } = await session.send('Page.getInstallabilityErrors'));
        if (errors.length === 0) break;
        await page.waitForTimeout(250);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await rm(profileDir, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});

describe('alert settings on iPhone', { timeout: 120_000 }, () => {
  let searchUrl: string;
  let storageState: Awaited<ReturnType<BrowserContext['storageState']>>;

  beforeAll(async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, stack.baseUrl, USER.email, USER.password);
    await page.getByRole('button', { name: 'Create new search' }).first().click();
    await chooseOption(page, 'Select a product', 'iPhone 18 Pro', /^iPhone 18 Pro$/);
    await chooseOption(
      page,
      'Select a store',
      'Union Square',
      /^Union Square \| San Francisco, CA$/,
    );
    await page.getByRole('button', { name: 'Create search' }).click();
    await page.waitForURL(/\/search\/[0-9a-f-]{36}$/);
    searchUrl = page.url();
    storageState = await context.storageState();
    await context.close();
  }, 120_000);

  /** Opens the search page's settings, folded into an accordion on a phone. */
  async function openSettings(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Search Settings' }).click();
    await page.getByLabel(PUSH_TEXTS.label).waitFor();
  }

  /** Opens the search page as iPhone Safari, in a tab or as the Home Screen app. */
  async function openOnIphone(options: {
    isStandalone: boolean;
    isDisplayStandalone?: boolean;
  }): Promise<{ page: Page; close: () => Promise<void> }> {
    const context = await browser.newContext({
      storageState,
      userAgent: IPHONE_SAFARI,
      viewport: IPHONE_VIEWPORT,
      isMobile: true,
      hasTouch: true,
    });
    if (options.isStandalone) {
      // Safari's flag for a site opened from its Home Screen icon.
      await context.addInitScript(() => {
        Object.defineProperty(navigator, 'standalone', { value: true, configurable: true });
      });
    }
    if (options.isDisplayStandalone === true) {
      await context.addInitScript(() => {
        const matchMedia = window.matchMedia.bind(window);
        window.matchMedia = (query: string) =>
          query === '(display-mode: standalone)'
            ? { ...matchMedia('all'), matches: true, media: query }
            : matchMedia(query);
      });
    }
    const page = await context.newPage();
    await page.goto(searchUrl);
    await openSettings(page);
    return { page, close: () => context.close() };
  }

  it('explains "Add to Home Screen, then turn on notifications" in a Safari tab', async () => {
    const { page, close } = await openOnIphone({ isStandalone: false });
    try {
      const status = page.locator('#browser-notifications-status');
      await status.getByText(PUSH_TEXTS.homeScreen).waitFor();
      expect(await status.textContent()).toContain('tap Share, then Add to Home Screen');
      expect(await page.getByLabel(PUSH_TEXTS.label).isDisabled()).toBe(true);
    } finally {
      await close();
    }
  });

  it('offers the push switch as on desktop when opened from the Home Screen', async () => {
    const { page, close } = await openOnIphone({ isStandalone: true });
    try {
      await page.locator('#browser-notifications-status').getByText(PUSH_TEXTS.off).waitFor();
      expect(await page.getByLabel(PUSH_TEXTS.label).isEnabled()).toBe(true);
      expect(await page.getByText(PUSH_TEXTS.homeScreen).count()).toBe(0);
    } finally {
      await close();
    }
  });

  it('takes the standalone display mode other browsers report for the Home Screen app', async () => {
    // Chromium cannot emulate display-mode: the page's media query answers as an installed app's.
    const { page, close } = await openOnIphone({ isStandalone: false, isDisplayStandalone: true });
    try {
      expect(await page.evaluate(() => matchMedia('(display-mode: standalone)').matches)).toBe(
        true,
      );
      await page.locator('#browser-notifications-status').getByText(PUSH_TEXTS.off).waitFor();
      expect(await page.getByLabel(PUSH_TEXTS.label).isEnabled()).toBe(true);
    } finally {
      await close();
    }
  });
});
