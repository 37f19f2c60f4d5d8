// Reads the products an Apple buy page (`{base}/shop/buy-iphone/iphone-18-pro` and the iPad,
// Mac and Watch equivalents) offers, the two ways public checkers do: the product data of the
// inline `window.PRODUCT_SELECTION_BOOTSTRAP` script, and the `<script id="metrics">` JSON.
// Apple writes names with U+00A0 non-breaking spaces, so every name is normalised.

/** One configuration a buy page offers. */
export type BuyPageProduct = {
  partNumber: string;
  /** English name ("iPhone 18 Pro 256GB Black"), when the page carries one. */
  name: string | null;
  /** Apple's family key ("iphone18pro"), from the product selection data. */
  familyType: string | null;
  /** Display values of the dimensions, from the product selection data ("256GB", "Black"). */
  capacity: string | null;
  color: string | null;
};

/** What a buy page yielded, and which of the two shapes it carried. */
export type BuyPageRead = {
  products: BuyPageProduct[];
  hasSelectionData: boolean;
  hasMetrics: boolean;
};

const PART_NUMBER = /^[A-Z0-9]{4,5}[A-Z]{1,2}\/A$/;
const BOOTSTRAP_MARKER = 'window.PRODUCT_SELECTION_BOOTSTRAP';
const METRICS_SCRIPT =
  /<script\b(?=[^>]*\bid\s*=\s*["']metrics["'])(?=[^>]*\btype\s*=\s*["']application\/json["'])[^>]*>([\s\S]*?)<\/script>/i;

/** A name as people type it: NFKC (which turns U+00A0 into a space), runs of spaces collapsed. */
export function normalizeProductName(name: string): string {
  return name.normalize('NFKC').replace(/\s+/g, ' ').trim();
}

/** A part number in Apple's spelling (upper case), or null when it does not look like one. */
function normalizePartNumber(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const part = value.trim().toUpperCase();
  return PART_NUMBER.test(part) ? part : null;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The text of the balanced `{...}` starting at `start`, skipping braces inside strings. */
function sliceBalancedObject(text: string, start: number): string | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (quote !== undefined) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '{') {
      depth += 1;
    } else if (char === '}') {
      depth -= 1;
      if (depth === 0) return text.slice(start, index + 1);
    }
  }
  return undefined;
}

function readDisplayValue(
  displayValues: Record<string, unknown> | undefined,
  dimension: string,
  key: unknown,
): string | null {
  if (typeof key !== 'string') return null;
  const value = asRecord(asRecord(displayValues?.[dimension])?.[key])?.value;
  return typeof value === 'string' ? normalizeProductName(value) : null;
}

/** Products of the PRODUCT_SELECTION_BOOTSTRAP script, or undefined when the page has none. */
function readSelectionData(html: string): BuyPageProduct[] | undefined {
  const marker = html.indexOf(BOOTSTRAP_MARKER);
  if (marker < 0) return undefined;
  const open = html.indexOf('{', marker);
  const text = open < 0 ? undefined : sliceBalancedObject(html, open);
  if (text === undefined) throw new Error('PRODUCT_SELECTION_BOOTSTRAP is not a complete object');
  let bootstrap: unknown;
  try {
    bootstrap = JSON.parse(text);
  } catch {
    throw new Error('PRODUCT_SELECTION_BOOTSTRAP is not JSON');
  }
  const data = asRecord(asRecord(bootstrap)?.productSelectionData);
  const products = data?.products;
  if (!Array.isArray(products)) return [];
  const displayValues = asRecord(data?.displayValues);
  const read: BuyPageProduct[] = [];
  for (const entry of products) {
    const product = asRecord(entry);
    // Mac pages name the orderable part btrOrFdPartNumber.
    const partNumber = normalizePartNumber(product?.partNumber ?? product?.btrOrFdPartNumber);
    if (product === undefined || partNumber === null) continue;
    read.push({
      partNumber,
      name: typeof product.name === 'string' ? normalizeProductName(product.name) : null,
      familyType: typeof product.familyType === 'string' ? product.familyType : null,
      capacity: readDisplayValue(displayValues, 'dimensionCapacity', product.dimensionCapacity),
      color: readDisplayValue(displayValues, 'dimensionColor', product.dimensionColor),
    });
  }
  return read;
}

/** Products of the `script#metrics` JSON, or undefined when the page has none. */
function readMetrics(html: string): BuyPageProduct[] | undefined {
  const match = METRICS_SCRIPT.exec(html);
  if (match === null) return undefined;
  let metrics: unknown;
  try {
    metrics = JSON.parse(match[1] ?? '');
  } catch {
    throw new Error('the metrics script is not JSON');
  }
  const products = asRecord(asRecord(metrics)?.data)?.products;
  if (!Array.isArray(products)) return [];
  const read: BuyPageProduct[] = [];
  for (const entry of products) {
    const product = asRecord(entry);
    const partNumber = normalizePartNumber(product?.partNumber ?? product?.sku);
    if (product === undefined || partNumber === null) continue;
    read.push({
      partNumber,
      name: typeof product.name === 'string' ? normalizeProductName(product.name) : null,
      familyType: null,
      capacity: null,
      color: null,
    });
  }
  return read;
}

/**
 * Every product a buy page offers, merged by part number from both shapes (the metrics name
 * wins, the selection data adds the family and dimensions). Throws when a shape is present
 * but unreadable; an empty list means the page offered nothing readable.
 */
export function parseBuyPage(html: string): BuyPageRead {
  const selection = readSelectionData(html);
  const metrics = readMetrics(html);
  const byPart = new Map<string, BuyPageProduct>();
  for (const product of [...(selection ?? []), ...(metrics ?? [])]) {
    const known = byPart.get(product.partNumber);
    byPart.set(
      product.partNumber,
      known === undefined
        ? product
        : {
            partNumber: product.partNumber,
            name: product.name ?? known.name,
            familyType: known.familyType ?? product.familyType,
            capacity: known.capacity ?? product.capacity,
            color: known.color ?? product.color,
          },
    );
  }
  return {
    products: [...byPart.values()],
    hasSelectionData: selection !== undefined,
    hasMetrics: metrics !== undefined,
  };
}
