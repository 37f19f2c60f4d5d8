import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/index.ts';
import { readCatalogRows } from '#server/db/repositories/catalog-changes-repository.ts';
import { syncModelsFromBuyPages } from '#server/catalog/sync-models.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

// The sync fed Apple's real Australian product data (the capture in ../shared/reference/apple,
// the inner productSelectionData of the iPhone 17, 17 Pro and Air pages of 2025-09-11), wrapped
// the way the real pages write it. Skipped, saying so, where the reference folder is absent.

const CAPTURE = path.resolve(
  process.cwd(),
  '../shared/reference/apple/captures/au-buy-iphone-17-productSelectionData-2025-09-11.json',
);
const hasCapture = existsSync(CAPTURE);
if (!hasCapture) console.warn(`Skipping the AU buy-page capture sync: ${CAPTURE} is absent.`);

const BASE_URL = 'https://www.apple.com';
const TODAY = '2026-11-25';
// Which capture element is which page, by the family keys its products carry.
const PAGES = [
  { slug: 'iphone-17', family: 'iphone17', layout: 'object' },
  { slug: 'iphone-17-pro', family: 'iphone17pro', layout: 'array' },
  { slug: 'iphone-air', family: 'iphoneair', layout: 'object' },
] as const;
const TYPES = ['iphone17', 'iphone17pro', 'iphone17promax', 'iphoneair'];
const AU_MODELS = PRODUCT_MODEL_SEEDS.filter(
  (model) => model.country_code === 'AU' && TYPES.includes(model.product_id),
);

describe.runIf(hasCapture)('catalog sync-models fed the AU capture as Apple’s pages', () => {
  let testDb: TestDatabase;
  const pageHtml = new Map<string, string>();

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await seedCatalog(testDb.db);
    const selections = JSON.parse(readFileSync(CAPTURE, 'utf8')) as {
      products: { familyType: string }[];
    }[];
    for (const page of PAGES) {
      const data = selections.find((selection) =>
        selection.products.some((product) => product.familyType === page.family),
      );
      const literal = `{\n  productSelectionData: ${JSON.stringify(data)}\n}`;
      const bootstrap = page.layout === 'array' ? `[${literal}]` : literal;
      pageHtml.set(
        `${BASE_URL}/au/shop/buy-iphone/${page.slug}`,
        `<!DOCTYPE html><html><head><title>Buy ${page.slug}</title></head><body><script>window.PRODUCT_SELECTION_BOOTSTRAP = ${bootstrap}</script></body></html>`,
      );
    }
    // The capture predates the 17 Pro page's retirement: read it here as it was then.
    await testDb.db
      .updateTable('product_types')
      .set({ buy_page: '/shop/buy-iphone/iphone-17-pro' })
      .where('product_id', 'in', ['iphone17pro', 'iphone17promax'])
      .execute();
    await testDb.db
      .updateTable('product_models')
      .set({ retired_on: null })
      .where('country_code', '=', 'AU')
      .where('product_id', 'in', ['iphone17pro', 'iphone17promax'])
      .execute();
    // All but one AU model of each type are removed (one stays so the page is read in AU): each
    // removed part must be read back with its name.
    const kept = TYPES.map(
      (productId) =>
        AU_MODELS.filter((model) => model.product_id === productId)
          .map((model) => model.part_number)
          .sort()[0] ?? '',
    );
    await testDb.db
      .deleteFrom('product_models')
      .where('country_code', '=', 'AU')
      .where('product_id', 'in', TYPES)
      .where('part_number', 'not in', kept)
      .execute();
  });
  afterAll(async () => testDb?.drop());

  it('reads every product with a clean name, the name the catalog gives it', async () => {
    const capturePages: typeof fetch = async (input) => {
      const html = pageHtml.get(String(input instanceof Request ? input.url : input));
      return html === undefined
        ? new Response('<!DOCTYPE html><title>Page Not Found</title>', { status: 404 })
        : new Response(html, { status: 200, headers: { 'content-type': 'text/html' } });
    };
    const result = await syncModelsFromBuyPages(testDb.db, {
      baseUrl: BASE_URL,
      fetchPage: capturePages,
      today: TODAY,
    });
    expect(result.pages.map((page) => [page.url, page.products])).toEqual([
      [`${BASE_URL}/au/shop/buy-iphone/iphone-17`, 10],
      [`${BASE_URL}/au/shop/buy-iphone/iphone-air`, 12],
      [`${BASE_URL}/au/shop/buy-iphone/iphone-17-pro`, 21],
    ]);
    // The other countries' pages are not in the capture: reported, and the AU pages applied.
    expect(result.problems.every((problem) => problem.endsWith(': HTTP 404'))).toBe(true);
    expect(result).toMatchObject({ skipped: [], warnings: [], pagesRetired: [] });
    expect(result.summary.partsAdded).toHaveLength(39);
    expect(result.summary).toMatchObject({ partsChanged: [], partsRetired: [] });
    for (const added of result.summary.partsAdded) {
      expect(added).not.toMatch(/[<>\u00a0]|&[a-z]+;|Footnote/);
    }

    const read = (await readCatalogRows(testDb.db)).models.filter(
      (model) => model.country_code === 'AU' && TYPES.includes(model.product_id),
    );
    expect(
      read.map((model) => [model.part_number, model.product_id, model.display_name]).sort(),
    ).toEqual(
      AU_MODELS.map((model) => [model.part_number, model.product_id, model.display_name]).sort(),
    );
  });
});
