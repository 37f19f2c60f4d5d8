import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/models.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { expectNoSeriousAxeViolations } from './axe-check.ts';
import { chooseOption, ensureWebsiteBuilt, signIn } from './site-helpers.ts';

// Restock history and the push switch against the real stack. Real push delivery is not
// tested: headless Chromium here reaches no push service, so PushManager.subscribe() cannot
// succeed; the unit tests cover the switch with browser stand-ins, and this file checks the
// parts a real browser adds (the service worker is served at /sw.js and registers at root scope).

const USER = {
  email: 'history@example.com',
  password: 'restock history please',
  plan: 'best' as const,
};
const HOUR_MS = 60 * 60_000;

let stack: TestStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  await ensureWebsiteBuilt();
  stack = await startTestStack();
  await stack.createUser(USER);
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('search detail restock history', { timeout: 90_000 }, () => {
  it('charts seeded restocks and lists the latest ones', async () => {
    const models = PRODUCT_MODEL_SEEDS.filter(
      (seed) => seed.product_id === 'iphone18pro' && seed.country_code === 'US',
    );
    expect(models.length).toBeGreaterThanOrEqual(2);
    const [first, second] = models;

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
    await page.getByText('No restocks recorded in the last 7 days').waitFor();

    // Two restocks (today and yesterday) and a sell-out, which the list must leave out.
    const now = Date.now();
    await stack.stack.db
      .insertInto('availability_events')
      .values([
        {
          store_id: 'R075',
          part_number: first.part_number,
          from_status: 'unavailable',
          to_status: 'available',
          pickup_quote: 'Available today',
          observed_at: new Date(now - 2 * HOUR_MS - 60_000),
        },
        {
          store_id: 'R075',
          part_number: first.part_number,
          from_status: 'available',
          to_status: 'unavailable',
          pickup_quote: null,
          observed_at: new Date(now - HOUR_MS),
        },
        {
          store_id: 'R075',
          part_number: second.part_number,
          from_status: null,
          to_status: 'available',
          pickup_quote: null,
          observed_at: new Date(now - 26 * HOUR_MS),
        },
      ])
      .execute();
    await page.reload();

    const figure = page.getByRole('figure');
    await figure.waitFor();
    // One restock on each of two days: a tie, so no day is called the busiest.
    expect(await figure.getAttribute('aria-label')).toBe(
      'Restock chart: 2 restocks in the last 7 days',
    );
    // uPlot draws into a canvas once its lazily loaded chunk arrives.
    await page.getByTestId('restock-chart').locator('canvas').waitFor();
    expect(await figure.getByRole('row').count()).toBe(8);

    // Rows sit under their store's heading instead of each naming it.
    await page.getByRole('heading', { name: 'Union Square', level: 4 }).waitFor();
    const items = page
      .getByRole('list', { name: 'Recent restocks at Union Square' })
      .getByRole('listitem');
    // The page is about iPhone 18 Pro already: rows name the model's capacity and colour.
    const shortName = (name: string) => name.replace(/^iPhone 18 Pro /, '');
    expect(await items.allTextContents()).toEqual([
      `${shortName(first.display_name)}, 2 h ago · Available today`,
      `${shortName(second.display_name)}, 1 d ago`,
    ]);
    await expectNoSeriousAxeViolations(page);
  });

  it('serves the service worker at the site root and lets it register there', async () => {
    const response = await page.request.get(`${stack.baseUrl}/sw.js`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('javascript');
    await page.getByLabel('Browser notifications').waitFor();
    const scope = await page.evaluate(async () => {
      await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      return (await navigator.serviceWorker.ready).scope;
    });
    expect(scope).toBe(`${new URL(stack.baseUrl).origin}/`);
  });
});
