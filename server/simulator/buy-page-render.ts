import type { ProductModelSeed } from '#shared/catalog/index.ts';

// The HTML of Apple's buy pages as the simulator writes them, after what real pages show
// (../shared/reference/apple/README.md, "Buy pages are not JSON", and the AU capture
// captures/au-buy-iphone-17-productSelectionData-2025-09-11.json):
// - `window.PRODUCT_SELECTION_BOOTSTRAP = { productSelectionData: {...} }`, a JavaScript literal
//   with an unquoted key, or the same inside an array `[{ productSelectionData: ... }]`;
// - iPhone and iPad pages: products with `partNumber`, `familyType`, a line code in `part`
//   (`IPHONE17_MAIN`) and flat `dimensionCapacity` / `dimensionColor` keys named through
//   `displayValues` in HTML (`256<small>GB</small><as-footnote>...`), plus `script#metrics`;
//   on a page of several models the model is a `dimensionScreensize` whose display value is
//   its name before a small label;
// - Mac and Watch pages: no metrics block; products keep a `dimensions` object and their part
//   in `btrOrFdPartNumber` (Mac) or `part` (Watch).
// Names are written with U+00A0 between words, as Apple's are.

/** Which of the two product shapes iPhone and iPad pages carry (Mac and Watch: selection only). */
export const BUY_PAGE_SHAPES = ['both', 'selection', 'metrics'] as const;
/** A buy page shape setting. */
export type BuyPageShape = (typeof BUY_PAGE_SHAPES)[number];

/**
 * How the bootstrap is written: `object` or `array` everywhere, or `by-page` (iPhone pages the
 * object, the other lines the array; which real pages use which is not recorded).
 */
export const BUY_PAGE_LAYOUTS = ['by-page', 'object', 'array'] as const;
/** A buy page layout setting. */
export type BuyPageLayout = (typeof BUY_PAGE_LAYOUTS)[number];

/** A model on a page, with its product type's name. */
export type PageProduct = { model: ProductModelSeed; productName: string | undefined };

const NBSP = '\u00a0';
const CAPACITY = /^(\d+)(GB|TB)$/;
const FOOTNOTE =
  '<as-footnote data-id="sim" data-assigned="true"><sup data-autom="footnote-sub" class="as-footnote"><span class="visuallyhidden">&nbsp;Footnote&nbsp;</span>1</sup></as-footnote>';

// Keys of the `dimensions` object of Mac and Watch products: sizes ("14-inch", "41mm") have
// their own; the words before and after a size fill the other two.
const DIMENSION_KEYS = {
  mac: {
    size: 'chassis-dimensionScreensize',
    before: 'chassis-dimensionColor',
    after: 'processor-dimensionChip',
  },
  watch: {
    size: 'watch_cases-dimensionCaseSize',
    before: 'watch_cases-dimensionConnection',
    after: 'watch_cases-dimensionColor',
  },
} as const;
const SIZE_WORD = /^\d+(?:-inch|mm)$/;

/** A dimension key the way Apple writes them: lower case, no spaces ("mistblue", "256gb"). */
function toDimensionKey(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** What follows the type's name in a model's name ("256GB Black"), or undefined. */
function readRemainder(product: PageProduct): string | undefined {
  const { model, productName } = product;
  if (productName === undefined || !model.display_name.startsWith(`${productName} `)) {
    return undefined;
  }
  return model.display_name.slice(productName.length + 1);
}

/** Capacity and colour of an iPhone-style name ("iPhone 18 Pro 256GB Black"), when it has them. */
function splitCapacityAndColor(product: PageProduct) {
  const [capacity, ...color] = (readRemainder(product) ?? '').split(' ');
  if (capacity === undefined || !CAPACITY.test(capacity) || color.length === 0) return undefined;
  return { capacity, color: color.join(' ') };
}

/** A Mac's or Watch's `dimensions`: the words of its name around a size, in name order. */
function splitDimensions(product: PageProduct, keys: (typeof DIMENSION_KEYS)['mac' | 'watch']) {
  const words = (readRemainder(product) ?? '').split(' ').filter((word) => word !== '');
  const sizeAt = words.findIndex((word) => SIZE_WORD.test(word));
  const parts: [string, string][] =
    sizeAt < 0
      ? [[keys.after, words.join(' ')]]
      : [
          [keys.before, words.slice(0, sizeAt).join(' ')],
          [keys.size, words[sizeAt] ?? ''],
          [keys.after, words.slice(sizeAt + 1).join(' ')],
        ];
  return parts.filter(([, label]) => label !== '');
}

/** JSON for an inline script: only `</` is escaped, so the HTML inside values stays visible. */
function writeScriptJson(value: unknown): string {
  return JSON.stringify(value).replaceAll('</', '<\\/');
}

function writeCapacity(capacity: string): string {
  return `${capacity.replace(CAPACITY, '$1<small>$2</small>')}${FOOTNOTE}`;
}

/** Selection data of an iPhone or iPad page: flat dimensions, a model dimension if several. */
function buildFlatSelection(slug: string, products: readonly PageProduct[]) {
  const types = new Map(products.map(({ model, productName }) => [model.product_id, productName]));
  const hasModelChoice = slug.startsWith('iphone') && types.size > 1;
  const display: Record<string, Record<string, { value: string }>> = {
    dimensionCapacity: {},
    dimensionColor: {},
  };
  if (hasModelChoice) {
    display.dimensionScreensize = Object.fromEntries(
      [...types].map(([productId, productName]) => [
        productId,
        {
          value: `${(productName ?? productId).replaceAll(' ', '&nbsp;')}\n<span class="form-label-small">${FOOTNOTE}</span>`,
        },
      ]),
    );
  }
  const entries = products.map((product) => {
    const { model } = product;
    const entry: Record<string, unknown> = {
      partNumber: model.part_number,
      basePartNumber: model.part_number.slice(0, 5),
      familyType: model.product_id,
      fullPrice: model.part_number.toLowerCase().replace('/', '_'),
      part: `${slug.replaceAll('-', '').toUpperCase()}_MAIN`,
    };
    const split = splitCapacityAndColor(product);
    if (split !== undefined) {
      entry.dimensionCapacity = toDimensionKey(split.capacity);
      entry.dimensionColor = toDimensionKey(split.color);
      (display.dimensionCapacity ??= {})[toDimensionKey(split.capacity)] = {
        value: writeCapacity(split.capacity),
      };
      (display.dimensionColor ??= {})[toDimensionKey(split.color)] = {
        value: split.color.replaceAll(' ', NBSP),
      };
    }
    if (hasModelChoice) entry.dimensionScreensize = model.product_id;
    return entry;
  });
  return { products: entries, displayValues: display, sections: [] };
}

/** Selection data of a Mac or Watch page: `dimensions` objects, the part where Apple puts it. */
function buildDimensionSelection(line: 'mac' | 'watch', products: readonly PageProduct[]) {
  const keys = DIMENSION_KEYS[line];
  const labels: Record<string, Record<string, Record<string, string>>> = {};
  const entries: Record<string, unknown>[] = products.map((product) => {
    const dimensions: Record<string, string> = {};
    for (const [dimension, label] of splitDimensions(product, keys)) {
      const key = toDimensionKey(label);
      dimensions[dimension] = key;
      const html = `${label.replaceAll(' ', NBSP)}${dimension === keys.after ? FOOTNOTE : ''}`;
      // Mac pages name dimensions in `mainDisplayValues[...].header`, Watch in `displayValues`.
      (labels[dimension] ??= {})[key] = line === 'mac' ? { header: html } : { value: html };
    }
    const priceKey = Object.values(dimensions).join('-');
    return line === 'mac'
      ? {
          btrOrFdPartNumber: product.model.part_number,
          type: 'PRECONFIGURED_BTR',
          priceKey,
          dimensions,
        }
      : { part: product.model.part_number, priceKey, dimensions };
  });
  const first = entries[0];
  if (line === 'mac' && first !== undefined) {
    // A made-to-order configuration has no part number until it is ordered.
    entries.push({ ...first, btrOrFdPartNumber: null, type: 'CONFIGURABLE' });
  }
  return line === 'mac'
    ? { products: entries, mainDisplayValues: labels }
    : { products: entries, displayValues: labels };
}

function buildMetrics(products: readonly PageProduct[]) {
  return {
    data: {
      products: products.map(({ model }) => ({
        sku: model.part_number,
        partNumber: model.part_number,
        category: model.product_id.replace(/\d.*$/, ''),
        name: model.display_name.replaceAll(' ', NBSP),
      })),
    },
  };
}

/** The HTML of one buy page (`/shop/buy-{line}/{slug}`) listing `products`. */
export function renderBuyPage(options: {
  line: string;
  slug: string;
  products: readonly PageProduct[];
  shape: BuyPageShape;
  layout: BuyPageLayout;
}): string {
  const { line, slug, products, shape, layout } = options;
  const isDimensionPage = line === 'mac' || line === 'watch';
  const scripts: string[] = [];
  if (isDimensionPage || shape !== 'metrics') {
    const selection =
      line === 'mac' || line === 'watch'
        ? buildDimensionSelection(line, products)
        : buildFlatSelection(slug, products);
    const literal = `{\n  productSelectionData: ${writeScriptJson(selection)}\n}`;
    const isArray = layout === 'array' || (layout === 'by-page' && line !== 'iphone');
    scripts.push(
      `<script>\nwindow.PRODUCT_SELECTION_BOOTSTRAP = ${isArray ? `[${literal}]` : literal};\n</script>`,
    );
  }
  if (!isDimensionPage && shape !== 'selection') {
    scripts.push(
      `<script type="application/json" id="metrics">${writeScriptJson(buildMetrics(products))}</script>`,
    );
  }
  const title = `Buy ${slug.replaceAll('-', ' ')}`;
  return `<!DOCTYPE html><html lang="en-US"><head><meta charset="utf-8"><title>${title}</title></head><body><main id="main"><h1>${title}</h1></main>${scripts.join('')}</body></html>`;
}

/** A line's overview page (`/iphone/`), where a retired buy page redirects: no product data. */
export function renderOverviewPage(line: string): string {
  return `<!DOCTYPE html><html lang="en-US"><head><meta charset="utf-8"><title>${line} - Apple</title></head><body><main id="main"><h1>${line}</h1><p>Shop the lineup.</p></main></body></html>`;
}
