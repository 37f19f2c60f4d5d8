// `npm run screenshots`: PNGs of every route at 375 and 1280 px into screenshots/.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { exampleInventorySchema } from '#shared/api/inventory.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { captureAppWindow } from '../desktop/app-screenshots.ts';
import { startScriptStack } from './script-stack.ts';
import { signIn } from './site-helpers.ts';

const OUT_DIR = path.resolve(import.meta.dirname, '..', '..', '..', 'screenshots');
const WIDTHS = [375, 1280] as const;

/** Signed-out routes: [file name, path]. */
const PUBLIC_ROUTES: [string, string][] = [
  ['landing', '/'],
  ['plans', '/plans'],
  ['download', '/download'],
  ['new-iphone', '/new-iphone'],
  ['support', '/support'],
  ['tos', '/tos'],
  ['privacy-policy', '/privacy-policy'],
  ['refund-policy', '/refund-policy'],
  ['error', '/error?error_message=Your%20card%20was%20declined.'],
  ['error-unknown', '/error'],
  ['checkout-cancelled', '/checkout_cancelled'],
  ['not-found', '/no-such-page'],
  ['force-login', '/force_login'],
];

/** Opens a path, lets data and fonts settle, and saves a full-page PNG. */
async function capture(
  page: Page,
  baseUrl: string,
  name: string,
  route: string,
  width: number,
): Promise<void> {
  await page.setViewportSize({ width, height: width < 600 ? 812 : 900 });
  await page.goto(`${baseUrl}${route}`, { waitUntil: 'networkidle' });
  await page.waitForTimeout(300);
  const file = path.join(OUT_DIR, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`  ${path.relative(process.cwd(), file)}`);
}

/** Waits (up to a minute) for the first watch cycle so the landing page shows store cards. */
async function waitForExampleInventory(baseUrl: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/v2/inventory/example_inventory`);
    const body = exampleInventorySchema.safeParse(response.ok ? await response.json() : []);
    if (body.success && body.data.some((entry) => entry.inventory.length > 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  console.log('  (no example inventory after 60 s: the landing page shows its empty state)');
}

/** Captures every route signed out, then signed in as the demo Premium user. */
async function captureAll(): Promise<void> {
  await mkdir(OUT_DIR, { recursive: true });
  const stack = await startScriptStack({ isWatching: true });
  const browser = await launchBrowser();
  try {
    await waitForExampleInventory(stack.baseUrl);
    const visitor = await browser.newPage();
    for (const width of WIDTHS) {
      for (const [name, route] of PUBLIC_ROUTES) {
        await capture(visitor, stack.baseUrl, name, route, width);
      }
    }
    const member = await browser.newPage();
    await signIn(member, stack.baseUrl, stack.demo.email, stack.demo.password);
    const searchLink = member.getByRole('link', { name: 'View inventory' }).first();
    await searchLink.waitFor();
    const searchPath = (await searchLink.getAttribute('href')) ?? '/';
    for (const width of WIDTHS) {
      await capture(member, stack.baseUrl, 'my-searches', '/', width);
      await capture(member, stack.baseUrl, 'search-detail', searchPath, width);
      await capture(
        member,
        stack.baseUrl,
        'search-not-found',
        '/search/00000000-0000-4000-8000-000000000000',
        width,
      );
      await capture(member, stack.baseUrl, 'account', '/account', width);
      await member.goto(`${stack.baseUrl}/`, { waitUntil: 'networkidle' });
      await member.getByRole('button', { name: 'Create new search' }).first().click();
      await member.getByRole('dialog').waitFor();
      await member.waitForTimeout(400);
      await member.screenshot({ path: path.join(OUT_DIR, `create-search-modal-${width}.png`) });
      console.log(`  screenshots/create-search-modal-${width}.png`);
    }
    console.log('macOS app window (desktop harness):');
    for (const file of await captureAppWindow(browser, OUT_DIR)) {
      console.log(`  ${path.relative(process.cwd(), file)}`);
    }
  } finally {
    await browser.close();
    await stack.stop();
  }
}

await captureAll();
