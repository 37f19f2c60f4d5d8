import { describe, expect, it } from 'vitest';
import { normalizeProductName, parseBuyPage } from '#shared/catalog/buy-page.ts';

const NBSP = '\u00a0';

const SELECTION_PAGE = `<html><head><script>
window.PRODUCT_SELECTION_BOOTSTRAP = {"productSelectionData":{"products":[
 {"partNumber":"MJQ34LL/A","basePartNumber":"MJQ34","familyType":"iphone18pro","dimensionCapacity":"256gb","dimensionColor":"black","dimensionScreensize":"6_3inch","seoUrlToken":"{x}"},
 {"partNumber":"mjw64ll/a","familyType":"iphone18promax","dimensionCapacity":"256gb","dimensionColor":"burgundy"},
 {"partNumber":"MJQ34"}
],"displayValues":{"dimensionColor":{"black":{"value":"Black"},"burgundy":{"value":"Deep${NBSP}Burgundy"}},"dimensionCapacity":{"256gb":{"value":"256GB"}}}}};
</script></head><body></body></html>`;

const METRICS_PAGE = `<html><body><script id="metrics" type="application/json">{"data":{"products":[
 {"sku":"MG6L4X/A","partNumber":"MG6L4X/A","name":"iPhone${NBSP}17${NBSP}256GB${NBSP}Mist${NBSP}Blue","price":{"fullPrice":1399},"category":"iphone"}
]}}</script></body></html>`;

describe('parseBuyPage', () => {
  it('reads the PRODUCT_SELECTION_BOOTSTRAP product data with display names', () => {
    const read = parseBuyPage(SELECTION_PAGE);
    expect(read).toMatchObject({ hasSelectionData: true, hasMetrics: false });
    expect(read.products).toEqual([
      {
        partNumber: 'MJQ34LL/A',
        name: null,
        familyType: 'iphone18pro',
        capacity: '256GB',
        color: 'Black',
      },
      {
        partNumber: 'MJW64LL/A',
        name: null,
        familyType: 'iphone18promax',
        capacity: '256GB',
        color: 'Deep Burgundy',
      },
    ]);
  });

  it('reads the script#metrics JSON and turns non-breaking spaces into spaces', () => {
    const read = parseBuyPage(METRICS_PAGE);
    expect(read).toMatchObject({ hasSelectionData: false, hasMetrics: true });
    expect(read.products).toEqual([
      {
        partNumber: 'MG6L4X/A',
        name: 'iPhone 17 256GB Mist Blue',
        familyType: null,
        capacity: null,
        color: null,
      },
    ]);
  });

  it('merges both shapes by part number', () => {
    const page = SELECTION_PAGE.replace(
      '</body>',
      `<script type="application/json" id="metrics">{"data":{"products":[{"sku":"MJQ34LL/A","name":"iPhone${NBSP}18${NBSP}Pro 256GB Black"}]}}</script></body>`,
    );
    const read = parseBuyPage(page);
    expect(read.products.find((p) => p.partNumber === 'MJQ34LL/A')).toEqual({
      partNumber: 'MJQ34LL/A',
      name: 'iPhone 18 Pro 256GB Black',
      familyType: 'iphone18pro',
      capacity: '256GB',
      color: 'Black',
    });
  });

  it('takes a Mac page’s btrOrFdPartNumber', () => {
    const page = `<script>window.PRODUCT_SELECTION_BOOTSTRAP = {"productSelectionData":{"products":[{"btrOrFdPartNumber":"MU9D3LL/A","priceKey":"m4-10-10"}]}};</script>`;
    expect(parseBuyPage(page).products.map((p) => p.partNumber)).toEqual(['MU9D3LL/A']);
  });

  it('yields nothing from a page with neither shape, and throws on a broken one', () => {
    expect(parseBuyPage('<html><title>Page Not Found</title></html>')).toEqual({
      products: [],
      hasSelectionData: false,
      hasMetrics: false,
    });
    expect(() =>
      parseBuyPage(
        '<script>window.PRODUCT_SELECTION_BOOTSTRAP = {"productSelectionData": </script>',
      ),
    ).toThrow(/PRODUCT_SELECTION_BOOTSTRAP/);
    expect(() =>
      parseBuyPage('<script type="application/json" id="metrics">{oops}</script>'),
    ).toThrow(/metrics/);
  });

  it('normalises names for matching', () => {
    expect(normalizeProductName(`  iPhone${NBSP}Air\u2002 1TB  `)).toBe('iPhone Air 1TB');
  });
});
