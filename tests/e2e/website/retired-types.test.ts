import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { chooseOption, ensureWebsiteBuilt, signIn } from './site-helpers.ts';

// In the bundled catalog iPhone 17 Pro Max is retired in the US (and in Australia, Japan,
// China and Singapore since 2026-09-11) and still sold in Germany; iPhone 17 Pro is sold
// nowhere any more.
const USER = {
  email: 'retired@example.com',
  password: 'a long enough password',
  plan: 'best' as const,
};

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

describe('a product type retired in one country, in the browser', { timeout: 90_000 }, () => {
  let searchId = '';

  it('is not offered at a US store but is at a German one, where a search is created', async () => {
    await signIn(page, stack.baseUrl, USER.email, USER.password);
    await page.getByRole('button', { name: 'Create new search' }).first().click();
    await page.getByRole('dialog').waitFor();
    await chooseOption(page, 'Select a store', 'Fifth Avenue', /^Fifth Avenue \| New York, NY$/);
    const product = page.getByLabel('Select a product');
    // Still sold in the US: offered.
    await product.fill('iPhone 18 Pro');
    await page.getByRole('option', { name: /^iPhone 18 Pro$/ }).waitFor();
    // Retired in the US: neither the 17 Pro nor the 17 Pro Max is offered.
    await product.fill('iPhone 17 Pro');
    await page.getByText('No options').waitFor();
    expect(await page.getByRole('option').count()).toBe(0);
    await product.fill('');
    await page.keyboard.press('Escape');

    await chooseOption(page, 'Select a store', 'Altmarkt', /^Altmarkt-Galerie \| Dresden$/);
    await chooseOption(page, 'Select a product', 'iPhone 17 Pro Max', /^iPhone 17 Pro Max$/);
    await page.getByRole('button', { name: 'Create search' }).click();
    await page.waitForURL(/\/search\/[0-9a-f-]{36}$/);
    searchId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    await page.getByRole('heading', { name: 'iPhone 17 Pro Max', level: 1 }).waitFor();
    await page.getByText('near Altmarkt-Galerie | Dresden').waitFor();
    expect(await page.getByText('No longer sold').count()).toBe(0);
  });

  it('keeps an existing US search working, saying "No longer sold"', async () => {
    // As if the search had been made at Fifth Avenue before the US retirement.
    await stack.stack.db
      .updateTable('searches')
      .set({ store_id: 'R095' })
      .where('id', '=', searchId)
      .execute();
    await page.reload();
    const heading = page.getByRole('heading', { level: 1 });
    await heading.getByText('No longer sold').waitFor();
    await page.getByText('near Fifth Avenue | New York, NY').waitFor();
    await page.getByText('iPhone 17 Pro Max (no longer sold)').first().waitFor();
    // Its models are still listed, so its preferred models can still be chosen.
    const preferred = page.getByRole('group', { name: 'Preferred models' }).getByRole('checkbox');
    await preferred.first().waitFor();
    expect(await preferred.count()).toBeGreaterThan(0);

    // My Searches says so on its card (the list may be cached for a few seconds).
    await page.goto(`${stack.baseUrl}/`);
    await page.getByRole('heading', { name: 'My Searches' }).waitFor();
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByText('iPhone 17 Pro Max').first().waitFor();
          return await page.getByText('No longer sold').count();
        },
        { timeout: 30_000, interval: 2_000 },
      )
      .toBe(1);
  });
});
