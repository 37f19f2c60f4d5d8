// Screenshots of the macOS app's window (1100x720) from the desktop harness, taken with the
// website's by `npm run screenshots`.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { startUpstreamSimulator } from '#server/simulator/index.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { chooseOption } from '../website/site-helpers.ts';
import { startDesktopHarness, HARNESS_ORIGIN } from './desktop-harness.ts';

/** Captures the app's screens into `outDir` as app-*.png; answers the files written. */
export async function captureAppWindow(browser: Browser, outDir: string): Promise<string[]> {
  const simulator = await startUpstreamSimulator({
    port: await getFreePort(),
    seed: 3,
    stores: STORE_SEEDS,
    models: PRODUCT_MODEL_SEEDS,
    countries: COUNTRY_SEEDS,
    now: Date.now,
  });
  const app = await startDesktopHarness({ browser, upstreamUrl: simulator.url });
  const files: string[] = [];
  const shoot = async (name: string) => {
    await app.page.waitForTimeout(400);
    const file = path.join(outDir, `app-${name}-1100x720.png`);
    await app.page.screenshot({ path: file });
    files.push(file);
  };
  try {
    const { page } = app;
    await page.getByText('Add a search!').waitFor();
    await shoot('first-launch');
    await page.getByRole('button', { name: 'Create new search' }).first().click();
    await chooseOption(page, 'Select a product', 'iPhone 18 Pro', /^iPhone 18 Pro$/);
    await chooseOption(page, 'Select a store', 'Fifth Avenue', /Fifth Avenue/);
    await shoot('create-search');
    await page.getByRole('button', { name: 'Create search' }).click();
    await page.waitForURL(/\/search\//);
    await page.getByText(/Last checked/).waitFor();
    await shoot('search-detail');
    await page.goto(`${HARNESS_ORIGIN}/`);
    await page.getByRole('link', { name: 'View inventory' }).waitFor();
    await shoot('my-searches');
    await page.getByRole('button', { name: 'Create new search' }).first().click();
    await chooseOption(page, 'Select a product', 'iPhone 16', /^iPhone 16$/);
    await chooseOption(page, 'Select a store', 'Fifth Avenue', /Fifth Avenue/);
    await page.getByRole('button', { name: 'Create search' }).click();
    // The dialog's Login (the navbar's is a link).
    await page.getByRole('dialog').getByRole('button', { name: 'Login' }).waitFor();
    await shoot('free-limit');
    await page.goto(`${HARNESS_ORIGIN}/settings`);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await shoot('settings');
  } finally {
    await app.stop();
    await simulator.close();
  }
  return files;
}
