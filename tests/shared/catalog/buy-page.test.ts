import { describe, expect, it } from 'vitest';
import { normalizeProductName, parseBuyPage } from '#shared/catalog/buy-page.ts';
import { listSelectionData, sliceBalanced } from '#shared/catalog/buy-page-selection.ts';
import { readDisplayText, readModelTitle } from '#shared/catalog/buy-page-text.ts';

const NBSP = '\u00a0';
const FOOTNOTE =
  '<as-footnote data-id="6c34" data-assigned="true"><sup data-autom="footnote-sub" class="as-footnote"><span class="visuallyhidden">&nbsp;Footnote&nbsp;</span>1</sup></as-footnote>';

// Product selection data the way the Australian capture writes it: no names, display values
// in HTML, the model as a screen-size display value on a page of two models.
const SELECTION = {
  products: [
    {
      partNumber: 'MJQ34LL/A',
      basePartNumber: 'MJQ34',
      familyType: 'iphone18pro',
      part: 'IPHONE18PRO_MAIN',
      dimensionCapacity: '256gb',
      dimensionColor: 'black',
      dimensionScreensize: '6_3inch',
      seoUrlToken: '{x}',
    },
    {
      partNumber: 'mjw64ll/a',
      familyType: 'iphone18promax',
      dimensionCapacity: '256gb',
      dimensionColor: 'burgundy',
      dimensionScreensize: '6_9inch',
    },
    { partNumber: 'MJQ34', familyType: 'iphone18pro' },
  ],
  displayValues: {
    dimensionColor: {
      title: { singleVariantDisplayTitle: 'Colour:' },
      black: {
        value: 'Black',
        image: '<em class="click-layer"></em> <div class="effect">}}{{</div>',
      },
      burgundy: { value: `Deep${NBSP}Burgundy` },
    },
    dimensionCapacity: { '256gb': { value: `256<small>GB</small>${FOOTNOTE}` } },
    dimensionScreensize: {
      '6_3inch': {
        value: `iPhone&nbsp;18&nbsp;Pro\n<span class="form-label-small">6.3-inch display${FOOTNOTE}</span>`,
      },
      '6_9inch': {
        value: `iPhone&nbsp;18&nbsp;Pro&nbsp;Max\n<span class="form-label-small">6.9-inch display</span>`,
      },
    },
  },
};

/** A page carrying `literal` as its bootstrap, the way Apple's inline script does. */
function bootstrapPage(literal: string): string {
  return `<html><head><title>Buy iPhone 18 Pro</title><script type="text/javascript">
window.PRODUCT_SELECTION_BOOTSTRAP = ${literal};
</script></head><body></body></html>`;
}

const OBJECT_PAGE = bootstrapPage(
  `{\n  productSelectionData: ${JSON.stringify(SELECTION)},\n  analyticsData: { "tpl": "{a}{b}" }\n}`,
);

const METRICS_PAGE = `<html><body><script id="metrics" type="application/json">{"data":{"products":[
 {"sku":"MG6L4X/A","partNumber":"MG6L4X/A","name":"iPhone${NBSP}17${NBSP}256GB${NBSP}Mist${NBSP}Blue","price":{"fullPrice":1399},"category":"iphone"}
]}}</script></body></html>`;

const PRO_BLACK = {
  partNumber: 'MJQ34LL/A',
  name: null,
  title: 'iPhone 18 Pro',
  familyType: 'iphone18pro',
  details: ['256GB', 'Black'],
};

describe('parseBuyPage: the product selection data as Apple writes it', () => {
  it('reads the object after an unquoted productSelectionData key, names from display values', () => {
    const read = parseBuyPage(OBJECT_PAGE);
    expect(read).toMatchObject({ hasSelectionData: true, hasMetrics: false, problems: [] });
    expect(read.products).toEqual([
      PRO_BLACK,
      {
        partNumber: 'MJW64LL/A',
        name: null,
        title: 'iPhone 18 Pro Max',
        familyType: 'iphone18promax',
        details: ['256GB', 'Deep Burgundy'],
      },
    ]);
  });

  it('reads the array layout and a quoted key alike', () => {
    const arrayPage = bootstrapPage(`[{ productSelectionData: ${JSON.stringify(SELECTION)} }]`);
    const quotedPage = bootstrapPage(`{ "productSelectionData" : ${JSON.stringify(SELECTION)} }`);
    const valueArrayPage = bootstrapPage(
      `{ productSelectionData: [${JSON.stringify(SELECTION)}] }`,
    );
    for (const page of [arrayPage, quotedPage, valueArrayPage]) {
      expect(parseBuyPage(page).products[0]).toEqual(PRO_BLACK);
      expect(parseBuyPage(page).problems).toEqual([]);
    }
  });

  it('passes over mentions that are not the key and longer names that contain it', () => {
    const script = `var legacy_productSelectionData = {"products":[{"partNumber":"MZZZ1LL/A"}]};
      console.log(window.PRODUCT_SELECTION_BOOTSTRAP.productSelectionData.products);
      window.PRODUCT_SELECTION_BOOTSTRAP = { productSelectionDataV2: {"products":[]}, productSelectionData: {"products":[{"partNumber":"MJQ34LL/A"}]} };`;
    const { values, problems } = listSelectionData(script);
    expect(values).toEqual([{ products: [{ partNumber: 'MJQ34LL/A' }] }]);
    expect(problems).toEqual([]);
  });

  it('cuts objects and arrays by their brackets, not by the braces and quotes inside strings', () => {
    const text = 'x = {"a":"}}}{","b":["]",{"c":"\\"}"}],\'d\':"it\'s"} tail';
    expect(sliceBalanced(text, 4)).toBe('{"a":"}}}{","b":["]",{"c":"\\"}"}],\'d\':"it\'s"}');
    expect(sliceBalanced('[1,[2,{"a":[3]}]] tail', 0)).toBe('[1,[2,{"a":[3]}]]');
    expect(sliceBalanced('{"a":{"b":1}', 0)).toBeUndefined();
  });

  it('reads a Mac page’s dimensions and btrOrFdPartNumber, leaving out made-to-order entries', () => {
    const mac = {
      products: [
        {
          btrOrFdPartNumber: 'MU9D3LL/A',
          type: 'PRECONFIGURED_BTR',
          priceKey: 'm4-10-10',
          dimensions: { 'processor-dimensionChip': 'm4', 'chassis-dimensionColor': 'silver' },
        },
        {
          btrOrFdPartNumber: null,
          type: 'CONFIGURABLE',
          dimensions: { 'processor-dimensionChip': 'm4' },
        },
      ],
      mainDisplayValues: {
        'processor-dimensionChip': { m4: { header: `Apple${NBSP}M4 chip${FOOTNOTE}` } },
        'chassis-dimensionColor': { silver: { header: '<span>Silver</span>' } },
      },
    };
    const read = parseBuyPage(bootstrapPage(`[{productSelectionData: ${JSON.stringify(mac)}}]`));
    expect(read.products).toEqual([
      {
        partNumber: 'MU9D3LL/A',
        name: null,
        title: null,
        familyType: null,
        details: ['Apple M4 chip', 'Silver'],
      },
    ]);
  });

  it('takes a Watch’s part from `part`, but never an iPad’s line code', () => {
    const watch = {
      products: [
        { part: 'MEW14LL/A', dimensions: { 'watch_cases-dimensionCaseSize': '42mm' } },
        { part: 'IPADPRO11_WI_2025', dimensionCapacity: '256gb' },
      ],
      displayValues: { 'watch_cases-dimensionCaseSize': { '42mm': { value: '42mm' } } },
    };
    const read = parseBuyPage(bootstrapPage(`{productSelectionData: ${JSON.stringify(watch)}}`));
    expect(read.products.map((product) => [product.partNumber, product.details])).toEqual([
      ['MEW14LL/A', ['42mm']],
    ]);
  });
});

describe('parseBuyPage: the metrics list and the fallback between the two', () => {
  it('reads the script#metrics JSON and turns non-breaking spaces into spaces', () => {
    const read = parseBuyPage(METRICS_PAGE);
    expect(read).toMatchObject({ hasSelectionData: false, hasMetrics: true, problems: [] });
    expect(read.products).toEqual([
      {
        partNumber: 'MG6L4X/A',
        name: 'iPhone 17 256GB Mist Blue',
        title: null,
        familyType: null,
        details: null,
      },
    ]);
  });

  it('merges both shapes by part number, Apple’s metrics name with the selection’s family', () => {
    const page = OBJECT_PAGE.replace(
      '</body>',
      `<script type="application/json" id="metrics">{"data":{"products":[{"sku":"MJQ34LL/A","name":"iPhone${NBSP}18${NBSP}Pro 256GB Black"}]}}</script></body>`,
    );
    expect(parseBuyPage(page).products[0]).toEqual({
      ...PRO_BLACK,
      name: 'iPhone 18 Pro 256GB Black',
    });
  });

  it('still yields the products of one shape when the other is broken, naming the broken one', () => {
    const brokenSelection = METRICS_PAGE.replace(
      '<body>',
      '<body><script>window.PRODUCT_SELECTION_BOOTSTRAP = {productSelectionData: {"products": [oops]}};</script>',
    );
    const fromMetrics = parseBuyPage(brokenSelection);
    expect(fromMetrics.products.map((product) => product.partNumber)).toEqual(['MG6L4X/A']);
    expect(fromMetrics.problems).toEqual([
      expect.stringMatching(/^PRODUCT_SELECTION_BOOTSTRAP: productSelectionData is not JSON/),
    ]);

    const brokenMetrics = OBJECT_PAGE.replace(
      '</body>',
      '<script type="application/json" id="metrics">{oops}</script></body>',
    );
    const fromSelection = parseBuyPage(brokenMetrics);
    expect(fromSelection.products).toHaveLength(2);
    expect(fromSelection.problems).toEqual(['the metrics script is not JSON']);
  });

  it('yields nothing and no problem from a page with neither shape; a cut-short one is named', () => {
    expect(parseBuyPage('<html><title>Page Not Found</title></html>')).toEqual({
      products: [],
      hasSelectionData: false,
      hasMetrics: false,
      problems: [],
    });
    const cut = parseBuyPage(
      '<script>window.PRODUCT_SELECTION_BOOTSTRAP = {productSelectionData: {"products": [</script>',
    );
    expect(cut.products).toEqual([]);
    expect(cut.problems).toEqual([
      'PRODUCT_SELECTION_BOOTSTRAP: productSelectionData never closes (the page is cut short)',
    ]);
  });
});

describe('display values', () => {
  it('reads the visible text of a display value: no tags, footnotes or U+00A0', () => {
    expect(readDisplayText(`256<small>GB</small>${FOOTNOTE}`)).toBe('256GB');
    expect(readDisplayText('Mist&nbsp;Blue')).toBe('Mist Blue');
    expect(readDisplayText(`<span class="visuallyhidden">Now </span>A&amp;B`)).toBe('A&B');
    expect(readDisplayText(FOOTNOTE)).toBeNull();
  });

  it('reads a model title only from a value that has a small label under the name', () => {
    expect(
      readModelTitle(
        `iPhone&nbsp;17&nbsp;Pro\n<span class="form-label-small">6.3-inch display${FOOTNOTE}</span>`,
      ),
    ).toBe('iPhone 17 Pro');
    expect(readModelTitle('11-inch')).toBeNull();
  });

  it('normalises names for matching', () => {
    expect(normalizeProductName(`  iPhone${NBSP}Air\u2002 1TB  `)).toBe('iPhone Air 1TB');
  });
});
