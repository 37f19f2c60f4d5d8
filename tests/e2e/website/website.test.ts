import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/models.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { expectNoSeriousAxeViolations } from './axe-check.ts';
import { chooseOption, ensureWebsiteBuilt, signIn, signOut } from './site-helpers.ts';

const PREMIUM = {
  email: 'premium@example.com',
  password: 'correct horse battery',
  plan: 'best' as const,
};
const OTHER = {
  email: 'other@example.com',
  password: 'another long password',
  plan: 'better' as const,
};
const UNKNOWN_SEARCH_ID = '00000000-0000-4000-8000-000000000000';

let stack: TestStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  await ensureWebsiteBuilt();
  stack = await startTestStack();
  await stack.createUser(PREMIUM);
  await stack.createUser(OTHER);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('website signed out', { timeout: 60_000 }, () => {
  it('shows the landing page with banner, footer and no serious axe violations', async () => {
    await page.goto(`${stack.baseUrl}/`);
    await page
      .getByRole('heading', { name: 'Stop waiting weeks for Apple products to ship.' })
      .waitFor();
    expect(await page.title()).toBe('Apple Store stock alerts | Shelfwatch');
    expect(await page.getByRole('button', { name: 'Sign up' }).isDisabled()).toBe(true);
    expect(await page.getByRole('region', { name: 'Support notice' }).textContent()).toContain(
      'support for the product ends on September 8th, 2025',
    );
    expect(await page.getByRole('contentinfo').textContent()).toContain('© 2024');
    await page.getByRole('heading', { name: 'Product support' }).waitFor();
    await expectNoSeriousAxeViolations(page);
  });

  it('keeps the pricing period across a reload', async () => {
    await page.goto(`${stack.baseUrl}/plans`);
    await page.getByText('Save 64%').waitFor();
    const betterPrice = page.getByTestId('plan-better').locator('.display-6');
    expect(await betterPrice.textContent()).toBe('$2.50 / month');
    await page.getByText('Monthly', { exact: true }).click();
    await page.getByTestId('plan-better').getByText('billed monthly').waitFor();
    expect(await betterPrice.textContent()).toBe('$7 / month');
    await page.reload();
    await page.getByTestId('plan-better').getByText('billed monthly').waitFor();
    expect(await betterPrice.textContent()).toBe('$7 / month');
    expect(await page.getByText('Save 64%').count()).toBe(0);
    await expectNoSeriousAxeViolations(page);
  });

  it('renders FAQ and legal Markdown and neutralises javascript: links', async () => {
    await page.route('**/assets/*.md', (route) =>
      route.fulfill({
        contentType: 'text/markdown',
        body: '### Injected question\n\n[click me](javascript:alert(1))',
      }),
    );
    for (const [path, prompt] of [
      ['/support', 'Still having trouble? Feel free to reach out to support.'],
      ['/tos', 'Have questions? Feel free to reach out to support.'],
      ['/privacy-policy', 'Have questions? Feel free to reach out to support.'],
      ['/refund-policy', 'Have questions? Feel free to reach out to support.'],
    ]) {
      await page.goto(`${stack.baseUrl}${path}`);
      await page.getByRole('heading', { name: 'Injected question' }).waitFor();
      expect(await page.getByText('click me').getAttribute('href')).not.toContain('javascript');
      await page.getByText(prompt).waitFor();
    }
    await page.unroute('**/assets/*.md');
    await page.goto(`${stack.baseUrl}/support`);
    await page.getByRole('heading', { name: 'Frequently Asked Questions' }).waitFor();
    await page.getByRole('heading', { name: 'What does Shelfwatch do?' }).waitFor();
    await expectNoSeriousAxeViolations(page);
  });

  it('shows the exact error and cancelled texts', async () => {
    await page.goto(`${stack.baseUrl}/error`);
    await page.getByText('An unknown error occurred.').waitFor();
    await page.goto(`${stack.baseUrl}/error?error_message=Card%20declined`);
    await page.getByText('Card declined').waitFor();
    expect(await page.getByRole('link', { name: 'Go to My Account' }).getAttribute('href')).toBe(
      '/account',
    );
    await page.goto(`${stack.baseUrl}/checkout_cancelled`);
    // The layout is there at once; the screen follows when its code has loaded.
    await page.getByRole('heading', { name: 'Checkout failed...' }).waitFor();
    expect(await page.locator('main').textContent()).toBe('Checkout failed...');
  });

  it('shows a not-found page for unknown paths', async () => {
    await page.goto(`${stack.baseUrl}/no-such-page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });
});

describe('website signed in', { timeout: 90_000 }, () => {
  let searchPath = '';

  it('signs in through the login page', async () => {
    await signIn(page, stack.baseUrl, PREMIUM.email, PREMIUM.password);
    await page.getByRole('heading', { name: 'My Searches' }).waitFor();
    await page.getByText('Add a search!').waitFor();
    await expectNoSeriousAxeViolations(page);
  });

  it('opens and closes the create dialog and the Account menu from the keyboard', async () => {
    await page.getByRole('button', { name: 'Create new search' }).first().focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect(
      await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Account' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Log out' }).waitFor({ state: 'hidden' });
  });

  it('creates a search and lands on it', async () => {
    await page.getByRole('button', { name: 'Create new search' }).first().click();
    await page.getByRole('dialog').waitFor();
    await chooseOption(page, 'Select a product', 'iPhone 18 Pro', /^iPhone 18 Pro$/);
    await chooseOption(
      page,
      'Select a store',
      'Union Square',
      /^Union Square \| San Francisco, CA$/,
    );
    await expectNoSeriousAxeViolations(page);
    await page.getByRole('button', { name: 'Create search' }).click();
    await page.waitForURL(/\/search\/[0-9a-f-]{36}$/);
    searchPath = new URL(page.url()).pathname;
    await page.getByRole('heading', { name: 'iPhone 18 Pro', level: 1 }).waitFor();
    await page.getByText('near Union Square | San Francisco, CA').waitFor();
    // All 16 US configurations, by Apple's names and part numbers.
    const expected = PRODUCT_MODEL_SEEDS.filter(
      (seed) => seed.product_id === 'iphone18pro' && seed.country_code === 'US',
    );
    expect(expected).toHaveLength(16);
    const preferred = page.getByRole('group', { name: 'Preferred models' }).getByRole('checkbox');
    await preferred.first().waitFor();
    const shown = await preferred.evaluateAll((boxes) =>
      (boxes as HTMLInputElement[]).map((box) => ({
        id: box.id,
        label: box.labels?.[0]?.textContent ?? '',
      })),
    );
    expect(shown.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      expected
        .map((seed) => ({ id: `preferred-${seed.part_number}`, label: seed.display_name }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it('shows its inventory once a model is in stock', async () => {
    const model = PRODUCT_MODEL_SEEDS.find(
      (seed) => seed.product_id === 'iphone18pro' && seed.country_code === 'US',
    );
    expect(model).toBeDefined();
    await stack.setAvailability('R075', model?.part_number ?? '', 'available');
    await page.reload();
    await page.getByRole('heading', { name: 'Union Square', level: 3 }).waitFor();
    await page
      .getByText(model?.display_name ?? '')
      .first()
      .waitFor();
    await expectNoSeriousAxeViolations(page);
  });

  it('saves a setting with "Saving..." then "Saved"', async () => {
    // Hold the PATCH briefly so the busy state is observable.
    await page.route('**/v2/searches/*', async (route) => {
      if (route.request().method() === 'PATCH')
        await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await page.getByLabel('Show only preferred models').click();
    await page.getByText('Saving...').waitFor();
    expect(await page.getByLabel('Send email updates').isDisabled()).toBe(true);
    await page.getByText('Saved', { exact: true }).waitFor();
    expect(await page.getByLabel('Show only preferred models').isChecked()).toBe(true);
    await page.unroute('**/v2/searches/*');
  });

  it('saves the account only with a valid phone number', async () => {
    await page.goto(`${stack.baseUrl}/account`);
    await page.getByRole('heading', { name: 'My Account' }).waitFor();
    const phone = page.getByRole('textbox', { name: 'Phone number' });
    await phone.fill('555');
    await page.getByRole('button', { name: 'Save account' }).click();
    await page
      .getByText(
        'Failed to save account information. Please check that your phone number is entered correctly.',
      )
      .waitFor();
    await expectNoSeriousAxeViolations(page);
  });

  it("hides another user's and unknown searches behind a clear not-found message", async () => {
    await page.goto(`${stack.baseUrl}/search/${UNKNOWN_SEARCH_ID}`);
    await page.getByRole('heading', { name: 'Search not found' }).waitFor();
    await page.getByRole('link', { name: 'Back to My Searches' }).waitFor();
    await signOut(page, stack.baseUrl);
    await signIn(page, stack.baseUrl, OTHER.email, OTHER.password);
    await page.goto(`${stack.baseUrl}${searchPath}`);
    await page
      .getByRole('heading', { name: 'Search not found' })
      .waitFor({ timeout: 10_000 })
      .catch(async (error: unknown) => {
        console.log(
          'search page showed instead:',
          page.url(),
          await page.locator('main').textContent(),
        );
        throw error;
      });
    await page.getByRole('link', { name: 'Back to My Searches' }).click();
    await page.getByRole('heading', { name: 'My Searches' }).waitFor();
    await signOut(page, stack.baseUrl);
  });

  it('deletes the search after confirmation', async () => {
    await signIn(page, stack.baseUrl, PREMIUM.email, PREMIUM.password);
    await page.goto(`${stack.baseUrl}${searchPath}`);
    await page.getByRole('button', { name: 'Delete search' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Are you sure you want to delete this search?').waitFor();
    await dialog.getByRole('button', { name: 'Delete search' }).click();
    await page.waitForURL(`${stack.baseUrl}/`);
    await page.getByText('Add a search!').waitFor();
  });
});
