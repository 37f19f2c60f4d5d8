import { normalizeProductName, readDisplayText, readModelTitle } from './buy-page-text.ts';

// The product data of a buy page's `window.PRODUCT_SELECTION_BOOTSTRAP` script. Apple writes it
// as a JavaScript literal, not JSON: `{ productSelectionData: {...} }` with an unquoted key, on
// some pages inside an array `[{ productSelectionData: ... }]` (reference README, "Buy pages are
// not JSON"; ENCHIGO's buy-page reader and jonatw/apple-store-scrape scraper_base.py cut out the
// value after the key and parse that). The value itself is JSON.

/** One configuration a buy page offers. */
export type BuyPageProduct = {
  partNumber: string;
  /** Apple's own full name ("iPhone 18 Pro 256GB Black"), from the metrics list when present. */
  name: string | null;
  /** Apple's model title from the page ("iPhone 17 Pro Max"), when the page writes one. */
  title: string | null;
  /** Apple's family key ("iphone18pro"), from the product selection data. */
  familyType: string | null;
  /**
   * Display values of the configuration in naming order ("256GB", "Black"; a Mac's chip and
   * size); null when the page names none of its dimensions.
   */
  details: string[] | null;
};

/** Products read from a page's selection data, and why any part of it could not be read. */
export type SelectionRead = { products: BuyPageProduct[]; problems: string[] };

const KEY = 'productSelectionData';
const PART_NUMBER = /^[A-Z0-9]{4,5}[A-Z]{1,2}\/A$/;
// Where the display values of dimensions sit: `displayValues` on iPhone pages (AU capture);
// `mainDisplayValues` and `configDisplayValues` on Mac pages (jonatw/apple-store-scrape).
const DISPLAY_GROUPS = ['displayValues', 'mainDisplayValues', 'configDisplayValues'] as const;
const DISPLAY_FIELDS = ['value', 'header'] as const;

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function isIdentifierChar(char: string | undefined): boolean {
  return char !== undefined && /[A-Za-z0-9_$]/.test(char);
}

function skipSpace(text: string, start: number): number {
  let index = start;
  while (index < text.length && /\s/.test(text[index] ?? '')) index += 1;
  return index;
}

/**
 * The text of the balanced `{...}` or `[...]` opening at `start`, skipping brackets inside
 * strings (the values hold HTML with braces and escaped quotes); undefined if it never closes.
 */
export function sliceBalanced(text: string, start: number): string | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (quote !== undefined) {
      if (char === '\\') index += 1;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '{' || char === '[') {
      depth += 1;
    } else if (char === '}' || char === ']') {
      depth -= 1;
      if (depth === 0) return text.slice(start, index + 1);
    }
  }
  return undefined;
}

/** What one occurrence of the key holds, and where reading goes on from. */
type KeyRead = { end: number } & (
  { kind: 'value'; value: unknown } | { kind: 'problem'; problem: string } | { kind: 'mention' }
);

/**
 * What the `productSelectionData` at `at` holds: its parsed value (and where it ends), a problem
 * when it is a key whose value cannot be read, or nothing when it is only a mention.
 */
function readKeyValue(script: string, at: number): KeyRead {
  const after = at + KEY.length;
  const mention: KeyRead = { kind: 'mention', end: after };
  if (isIdentifierChar(script[at - 1]) || isIdentifierChar(script[after])) return mention;
  let position = after;
  if (script[position] === '"' || script[position] === "'") position += 1;
  position = skipSpace(script, position);
  if (script[position] !== ':') return mention;
  position = skipSpace(script, position + 1);
  const open = script[position];
  if (open !== '{' && open !== '[') {
    return { kind: 'problem', problem: `${KEY} is neither an object nor an array`, end: after };
  }
  const text = sliceBalanced(script, position);
  if (text === undefined) {
    return { kind: 'problem', problem: `${KEY} never closes (the page is cut short)`, end: after };
  }
  try {
    return { kind: 'value', value: JSON.parse(text) as unknown, end: position + text.length };
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'unreadable';
    return { kind: 'problem', problem: `${KEY} is not JSON (${reason})`, end: after };
  }
}

/**
 * Every `productSelectionData` value a script assigns, parsed: the key quoted or not, its value
 * an object or an array of them. A mention that is not a key (`x.productSelectionData.products`)
 * is passed over; a key whose value cannot be read is a problem, and the next one is still tried.
 */
export function listSelectionData(script: string): { values: unknown[]; problems: string[] } {
  const values: unknown[] = [];
  const problems: string[] = [];
  let at = script.indexOf(KEY);
  while (at >= 0) {
    const read = readKeyValue(script, at);
    if (read.kind === 'value') values.push(read.value);
    if (read.kind === 'problem') problems.push(read.problem);
    at = script.indexOf(KEY, read.end);
  }
  return { values, problems };
}

/** A part number in Apple's spelling (upper case), or null when it does not look like one. */
export function normalizePartNumber(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const part = value.trim().toUpperCase();
  return PART_NUMBER.test(part) ? part : null;
}

/** The raw display value (HTML) of one dimension value, from whichever group holds it. */
function findDisplayValue(data: Record<string, unknown>, dimension: string, key: unknown) {
  if (typeof key !== 'string') return undefined;
  for (const group of DISPLAY_GROUPS) {
    const entry = asRecord(asRecord(asRecord(data[group])?.[dimension])?.[key]);
    for (const field of DISPLAY_FIELDS) {
      const value = entry?.[field];
      if (typeof value === 'string') return value;
    }
  }
  return undefined;
}

function readLabel(data: Record<string, unknown>, dimension: string, key: unknown): string | null {
  const html = findDisplayValue(data, dimension, key);
  return html === undefined ? null : readDisplayText(html);
}

/**
 * The configuration's display values: a Mac's or Watch's `dimensions` object in Apple's order
 * (a dimension without a display value is left out), else an iPhone's capacity and colour.
 */
function readDetails(data: Record<string, unknown>, product: Record<string, unknown>) {
  const dimensions = asRecord(product.dimensions);
  const labels =
    dimensions === undefined
      ? [
          readLabel(data, 'dimensionCapacity', product.dimensionCapacity),
          readLabel(data, 'dimensionColor', product.dimensionColor),
        ]
      : Object.entries(dimensions).map(([dimension, key]) => readLabel(data, dimension, key));
  const named = labels.filter((label): label is string => label !== null);
  return named.length === 0 ? null : named;
}

/**
 * The part number of a product: `partNumber` (iPhone, iPad), `btrOrFdPartNumber` (Mac) or `part`
 * (Watch). An iPad's or iPhone's `part` holds a line code (`IPADPRO11_WI_2025`,
 * `IPHONE17_MAIN`), never taken for a part number since it does not look like one.
 */
function readPartNumber(product: Record<string, unknown>): string | null {
  for (const field of ['partNumber', 'btrOrFdPartNumber', 'part']) {
    const part = normalizePartNumber(product[field]);
    if (part !== null) return part;
  }
  return null;
}

/** Products of one parsed `productSelectionData` object (or an array of them), one per part. */
export function readSelectionProducts(value: unknown): BuyPageProduct[] {
  const selections = Array.isArray(value) ? value : [value];
  const byPart = new Map<string, BuyPageProduct>();
  for (const selection of selections) {
    const data = asRecord(selection);
    const products = data?.products;
    if (data === undefined || !Array.isArray(products)) continue;
    for (const entry of products) {
      const product = asRecord(entry);
      const partNumber = product === undefined ? null : readPartNumber(product);
      // Japan lists one part once per carrier; a part is read once.
      if (product === undefined || partNumber === null || byPart.has(partNumber)) continue;
      const screen = findDisplayValue(data, 'dimensionScreensize', product.dimensionScreensize);
      byPart.set(partNumber, {
        partNumber,
        name: typeof product.name === 'string' ? normalizeProductName(product.name) : null,
        title: screen === undefined ? null : readModelTitle(screen),
        familyType: typeof product.familyType === 'string' ? product.familyType : null,
        details: readDetails(data, product),
      });
    }
  }
  return [...byPart.values()];
}

/** The products of every `productSelectionData` in a script, and what could not be read. */
export function readSelectionScript(script: string): SelectionRead {
  const { values, problems } = listSelectionData(script);
  const byPart = new Map<string, BuyPageProduct>();
  for (const value of values) {
    for (const product of readSelectionProducts(value)) {
      if (!byPart.has(product.partNumber)) byPart.set(product.partNumber, product);
    }
  }
  if (values.length === 0 && problems.length === 0) problems.push(`it assigns no ${KEY}`);
  return { products: [...byPart.values()], problems };
}
