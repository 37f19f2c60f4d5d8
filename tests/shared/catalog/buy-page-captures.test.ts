import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBuyPage } from '#shared/catalog/buy-page.ts';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/index.ts';

// The buy-page reader against what Apple really wrote (../shared/reference/apple/captures, with
// their .source.txt files). A clone without the reference folder skips these, saying so.

const CAPTURES = path.resolve(process.cwd(), '../shared/reference/apple/captures');
const AU_CAPTURE = path.join(CAPTURES, 'au-buy-iphone-17-productSelectionData-2025-09-11.json');
const TH_SLICE = path.join(CAPTURES, 'th-buy-iphone-18-pro-metrics-slice-2026-09-18.txt');
const TH_NBSP = path.join(CAPTURES, 'th-buy-iphone-18-pro-metrics-nbsp-entry-2026-09-18.txt');
const hasCaptures = existsSync(AU_CAPTURE) && existsSync(TH_SLICE) && existsSync(TH_NBSP);
if (!hasCaptures) {
  console.warn(`Skipping the buy-page capture tests: ${CAPTURES} is absent.`);
}

/** Whether a name is what a person reads: no markup, entity, footnote or U+00A0 left in it. */
function isCleanName(name: string): boolean {
  return !/[<>\u00a0]|&[a-z]+;|Footnote/.test(name) && name === name.trim();
}

describe.runIf(hasCaptures)('buy pages Apple really wrote', () => {
  // The capture holds the productSelectionData of three AU pages (iPhone 17, 17 Pro, Air).
  const pages = hasCaptures ? (JSON.parse(readFileSync(AU_CAPTURE, 'utf8')) as unknown[]) : [];
  const auNames = new Map(
    PRODUCT_MODEL_SEEDS.filter((model) => model.country_code === 'AU').map((model) => [
      model.part_number,
      model.display_name,
    ]),
  );
  const typeNames: Record<string, string> = {
    iphone17: 'iPhone 17',
    iphoneair: 'iPhone Air',
  };

  const layouts = {
    object: (data: string) =>
      `<script>window.PRODUCT_SELECTION_BOOTSTRAP = {productSelectionData: ${data}}</script>`,
    array: (data: string) =>
      `<script>window.PRODUCT_SELECTION_BOOTSTRAP = [{productSelectionData: ${data}}];</script>`,
  };

  for (const [layout, wrap] of Object.entries(layouts)) {
    it(`reads every AU product with a clean name from the ${layout} layout`, () => {
      const products = pages.flatMap((page) => {
        const read = parseBuyPage(wrap(JSON.stringify(page)));
        expect(read.problems).toEqual([]);
        return read.products;
      });
      expect(products).toHaveLength(43);
      for (const product of products) {
        const title = product.title ?? typeNames[product.familyType ?? ''];
        expect(title, product.partNumber).toBeDefined();
        const name = [title, ...(product.details ?? [])].join(' ');
        expect(isCleanName(name), name).toBe(true);
        // The catalog's AU names came from the same capture by hand: the reader agrees.
        expect(name).toBe(auNames.get(product.partNumber));
      }
      expect(products.find((product) => product.partNumber === 'MFYU4X/A')).toMatchObject({
        title: 'iPhone 17 Pro Max',
        familyType: 'iphone17promax',
        details: ['512GB', 'Deep Blue'],
      });
    });
  }

  it('reads the Thai metrics slice and the entry written with U+00A0', () => {
    const slice = readFileSync(TH_SLICE, 'utf8').trim();
    const nbsp = readFileSync(TH_NBSP, 'utf8').trim();
    const page = (products: string) =>
      `<script type="application/json" id="metrics">{"data":{${products}}}</script>`;
    const read = parseBuyPage(page(slice));
    expect(read.products.map((product) => [product.partNumber, product.name])).toEqual([
      ['MJY04ZP/A', 'iPhone 18 Pro Max 1TB Burgundy'],
      ['MJXQ4ZP/A', 'iPhone 18 Pro Max 256GB Burgundy'],
      ['MJY54ZP/A', 'iPhone 18 Pro Max 2TB Glacier'],
      ['MJRP4ZP/A', 'iPhone 18 Pro 256GB Black'],
    ]);
    expect(nbsp).toContain('\u00a0');
    const entry = parseBuyPage(page(`"products":[${nbsp}]`)).products;
    expect(entry.map((product) => product.name)).toEqual(['iPhone 18 Pro Max 256GB Burgundy']);
  });
});
