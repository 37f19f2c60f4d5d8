import { DomUtils, parseDocument } from 'htmlparser2';
import { normalizeProductName } from './buy-page-text.ts';
import {
  normalizePartNumber,
  readSelectionScript,
  type BuyPageProduct,
} from './buy-page-selection.ts';

// Reads the products an Apple buy page (`{base}/shop/buy-iphone/iphone-18-pro` and the iPad,
// Mac and Watch equivalents) offers, the two ways public checkers do: the product data of the
// inline `window.PRODUCT_SELECTION_BOOTSTRAP` script, and the `<script id="metrics">` JSON.
// Either may be missing or broken: `script#metrics` exists on iPhone, iPad and TV/Home pages
// only, not on Mac, Watch or some AirPods pages (reference README), so each is read on its own
// and a broken one is named while the other still yields the products. The page is parsed
// with htmlparser2; the script texts are then read as JSON.

export { normalizeProductName } from './buy-page-text.ts';
export type { BuyPageProduct } from './buy-page-selection.ts';

/** What a buy page yielded, which of the two shapes it carried and why one was unreadable. */
export type BuyPageRead = {
  products: BuyPageProduct[];
  hasSelectionData: boolean;
  hasMetrics: boolean;
  /** A shape the page carries that could not be read ("the metrics script is not JSON"). */
  problems: string[];
};

const BOOTSTRAP_MARKER = 'PRODUCT_SELECTION_BOOTSTRAP';

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Products of the `script#metrics` JSON: `data.products[]` with `sku`, `partNumber`, `name`. */
function readMetrics(text: string): { products: BuyPageProduct[]; problems: string[] } {
  let metrics: unknown;
  try {
    metrics = JSON.parse(text);
  } catch {
    return { products: [], problems: ['the metrics script is not JSON'] };
  }
  const products = asRecord(asRecord(metrics)?.data)?.products;
  if (!Array.isArray(products)) {
    return { products: [], problems: ['the metrics script lists no data.products'] };
  }
  const read: BuyPageProduct[] = [];
  for (const entry of products) {
    const product = asRecord(entry);
    // `sku` is the base code on some pages (MJY04) and the full number on others.
    const partNumber = normalizePartNumber(product?.partNumber ?? product?.sku);
    if (product === undefined || partNumber === null) continue;
    read.push({
      partNumber,
      name: typeof product.name === 'string' ? normalizeProductName(product.name) : null,
      title: null,
      familyType: null,
      details: null,
    });
  }
  return { products: read, problems: [] };
}

function mergeProduct(known: BuyPageProduct, other: BuyPageProduct): BuyPageProduct {
  return {
    partNumber: known.partNumber,
    name: known.name ?? other.name,
    title: known.title ?? other.title,
    familyType: known.familyType ?? other.familyType,
    details: known.details ?? other.details,
  };
}

/**
 * Every product a buy page offers, merged by part number from both shapes (the metrics name,
 * the selection data's title, family and dimensions). Never throws: a shape that is present but
 * unreadable is listed in `problems`; no products means the page offered nothing readable.
 */
export function parseBuyPage(html: string): BuyPageRead {
  const document = parseDocument(html);
  const scripts = DomUtils.getElementsByTagName('script', document);
  const problems: string[] = [];
  const byPart = new Map<string, BuyPageProduct>();
  const add = (products: readonly BuyPageProduct[]) => {
    for (const product of products) {
      const known = byPart.get(product.partNumber);
      byPart.set(product.partNumber, known === undefined ? product : mergeProduct(known, product));
    }
  };

  const bootstraps = scripts.filter((script) =>
    DomUtils.textContent(script).includes(BOOTSTRAP_MARKER),
  );
  for (const script of bootstraps) {
    const read = readSelectionScript(DomUtils.textContent(script));
    add(read.products);
    problems.push(...read.problems.map((problem) => `${BOOTSTRAP_MARKER}: ${problem}`));
  }
  // The metrics name is Apple's own full name, so it goes first into the merge.
  const metricsScripts = scripts.filter((script) => script.attribs.id === 'metrics');
  for (const script of metricsScripts) {
    const read = readMetrics(DomUtils.textContent(script));
    for (const product of read.products) {
      const known = byPart.get(product.partNumber);
      byPart.set(product.partNumber, known === undefined ? product : mergeProduct(product, known));
    }
    problems.push(...read.problems);
  }
  return {
    products: [...byPart.values()],
    hasSelectionData: bootstraps.length > 0,
    hasMetrics: metricsScripts.length > 0,
    problems,
  };
}
