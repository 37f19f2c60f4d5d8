import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

/** The phone-sized window the weight budgets are measured in (issue 30: 390 px wide). */
export const PHONE_VIEWPORT = { width: 390, height: 844 };

/** One script a page fetched, with its size as sent compressed at the highest levels. */
export type ScriptWeight = {
  path: string;
  rawBytes: number;
  gzipBytes: number;
  brotliBytes: number;
};

/** Every script of one page load and their totals. */
export type PageWeight = {
  scripts: ScriptWeight[];
  gzipKb: number;
  brotliKb: number;
};

/**
 * Loads a page in a fresh context (empty HTTP cache: a first visit), waits until `isReady`
 * says the screen is there and the network has been quiet for a second, and weighs every
 * script fetched: gzip -9 and brotli quality 11 of each body, the sizes the server's
 * pre-compressed files have.
 */
export async function measurePageJs(
  browser: Browser,
  url: string,
  isReady: (page: Page) => Promise<void>,
  contextOptions: BrowserContextOptions = {},
): Promise<PageWeight> {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT, ...contextOptions });
  try {
    const page = await context.newPage();
    const bodies = new Map<string, Promise<Buffer>>();
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      bodies.set(new URL(response.url()).pathname, response.body());
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    await isReady(page);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1000);
    const scripts = await Promise.all(
      [...bodies].map(async ([path, body]) => {
        const bytes = await body;
        return {
          path,
          rawBytes: bytes.length,
          gzipBytes: gzipSync(bytes, { level: 9 }).length,
          brotliBytes: brotliCompressSync(bytes, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
          }).length,
        };
      }),
    );
    scripts.sort((a, b) => b.gzipBytes - a.gzipBytes);
    const sumKb = (pick: (script: ScriptWeight) => number) =>
      scripts.reduce((sum, script) => sum + pick(script), 0) / 1024;
    return {
      scripts,
      gzipKb: sumKb((script) => script.gzipBytes),
      brotliKb: sumKb((script) => script.brotliBytes),
    };
  } finally {
    await context.close();
  }
}

/** Prints a page's scripts, largest first, and its totals. */
export function printPageWeight(title: string, weight: PageWeight): void {
  console.log(`${title} (${weight.scripts.length} scripts; gzip -9 / brotli 11):`);
  for (const script of weight.scripts) {
    console.log(
      `  ${(script.gzipBytes / 1024).toFixed(1).padStart(7)} KB  ${(script.brotliBytes / 1024).toFixed(1).padStart(7)} KB  ${script.path}`,
    );
  }
  console.log(
    `  ${weight.gzipKb.toFixed(1).padStart(7)} KB  ${weight.brotliKb.toFixed(1).padStart(7)} KB  total`,
  );
}
