import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/models.ts';
import { STORE_SEEDS } from '#shared/catalog/stores.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { PHONE_VIEWPORT } from './page-weight.ts';
import { ensureWebsiteBuilt } from './site-helpers.ts';

// Issue 30 (total blocking time on phones): the landing page shows with the CSS inlined in its
// <head> only, and holds the site's stylesheet back until the app shows something else
// (vite-prerender.ts, renderer/boot/site-stylesheet.ts).

const DESKTOP_VIEWPORT = { width: 1280, height: 900 };

let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  await ensureWebsiteBuilt();
  stack = await startTestStack();
  // Six stores with stock: store cards, and "Show all" for those beyond the first four.
  const model = PRODUCT_MODEL_SEEDS.find((candidate) => candidate.country_code === 'US');
  if (model === undefined) throw new Error('no US model in the catalog');
  const stores = STORE_SEEDS.filter((store) => store.country_locale === 'en_US').slice(0, 6);
  for (const store of stores) {
    await stack.setAvailability(store.store_id, model.part_number, 'available');
  }
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Runs `use` on a page of a new browser context at `viewport`, closing the context after. */
async function withPage(
  viewport: { width: number; height: number },
  use: (page: Page) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ viewport });
  try {
    await use(await context.newPage());
  } finally {
    await context.close();
  }
}

/** Opens `/` and waits until the example inventory has loaded and nothing else is on its way. */
async function openLoadedLanding(page: Page): Promise<void> {
  await page.goto(`${stack.baseUrl}/`);
  await page.getByRole('heading', { name: 'Country support' }).waitFor();
  // The skeleton (with its animated placeholders) has made way for the loaded inventory.
  await page.waitForFunction(() => document.querySelector('.placeholder-glow') === null);
  await page.waitForLoadState('networkidle');
}

/** Every element's computed style (each property), keyed by its place in the document. */
async function readComputedStyles(page: Page): Promise<Record<string, Record<string, string>>> {
  return await page.evaluate(() => {
    const styles: Record<string, Record<string, string>> = {};
    const elements = [document.body, ...document.body.querySelectorAll('*')];
    elements.forEach((element, index) => {
      if (element instanceof HTMLLinkElement || element.tagName === 'SCRIPT') return;
      const computed = getComputedStyle(element);
      const values: Record<string, string> = {};
      for (const property of computed) values[property] = computed.getPropertyValue(property);
      styles[`${index} ${element.tagName.toLowerCase()}.${element.className}`] = values;
    });
    return styles;
  });
}

/** Turns the held-back stylesheet on, as the app does, and waits until it applies. */
async function applySiteStylesheet(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const link = document.querySelector<HTMLLinkElement>('link[data-site-stylesheet]');
        if (link === null) throw new Error('no held-back stylesheet');
        link.addEventListener('load', () => resolve(), { once: true });
        link.addEventListener('error', () => reject(new Error('stylesheet failed')), {
          once: true,
        });
        link.disabled = false;
      }),
  );
}

/** The differences between two readings: element, property, before and after. */
function compareStyles(
  before: Record<string, Record<string, string>>,
  after: Record<string, Record<string, string>>,
): string[] {
  const differences: string[] = [];
  for (const [element, values] of Object.entries(before)) {
    for (const [property, value] of Object.entries(values)) {
      const changed = after[element]?.[property];
      if (changed !== value) differences.push(`${element} ${property}: ${value} -> ${changed}`);
    }
  }
  return differences;
}

describe('the landing page’s styles', { timeout: 90_000 }, () => {
  it('downloads no stylesheet while the visitor stays on the landing page', async () => {
    await withPage(PHONE_VIEWPORT, async (page) => {
      const stylesheets: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'stylesheet') stylesheets.push(request.url());
      });
      await openLoadedLanding(page);
      expect(stylesheets).toEqual([]);
      const isHeldBack = await page
        .locator('link[data-site-stylesheet]')
        .evaluate((link) => (link as HTMLLinkElement).disabled);
      expect(isHeldBack).toBe(true);
    });
  });

  for (const [label, viewport] of [
    ['a phone, every store and the menu open', PHONE_VIEWPORT],
    ['a desktop', DESKTOP_VIEWPORT],
  ] as const) {
    it(`looks the same with the whole stylesheet as with its inlined CSS on ${label}`, async () => {
      await withPage(viewport, async (page) => {
        await openLoadedLanding(page);
        await page.locator('.example-store-card').first().waitFor();
        if (viewport === PHONE_VIEWPORT) {
          await page.getByRole('button', { name: /^Show all \d+ stores$/ }).click();
          await page.getByRole('button', { name: 'Toggle navigation' }).click();
          await page.locator('.navbar-collapse.show').waitFor();
          await page.waitForFunction(() => document.querySelector('.collapsing') === null);
        }
        const inlinedOnly = await readComputedStyles(page);
        expect(Object.keys(inlinedOnly).length).toBeGreaterThan(100);
        await applySiteStylesheet(page);
        const withStylesheet = await readComputedStyles(page);
        expect(compareStyles(inlinedOnly, withStylesheet)).toEqual([]);
      });
    });
  }

  it('shows a screen opened from the landing page only once the stylesheet applies', async () => {
    await withPage(DESKTOP_VIEWPORT, async (page) => {
      await openLoadedLanding(page);
      // Records, at the moment the download screen's heading enters the page, whether the
      // site's stylesheet had loaded by then.
      await page.evaluate(() => {
        const record = window as unknown as { headingSeenStyled?: boolean };
        new MutationObserver((_, observer) => {
          const heading = [...document.querySelectorAll('h1')].find(
            (element) => element.textContent === 'Shelfwatch for macOS',
          );
          if (heading === undefined) return;
          const link = document.querySelector<HTMLLinkElement>('link[data-site-stylesheet]');
          record.headingSeenStyled = link !== null && !link.disabled && link.sheet !== null;
          observer.disconnect();
        }).observe(document.body, { childList: true, subtree: true });
      });
      await page.getByRole('link', { name: 'Download for macOS' }).first().click();
      await page.getByRole('heading', { name: 'Shelfwatch for macOS' }).waitFor();
      const headingSeenStyled = await page.evaluate(
        () => (window as unknown as { headingSeenStyled?: boolean }).headingSeenStyled,
      );
      expect(headingSeenStyled).toBe(true);
    });
  });
});
