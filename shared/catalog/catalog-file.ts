import { z } from 'zod';
import {
  buildCatalogTextSchema,
  buildNullPrototypeRecord,
  catalogDateSchema,
  sourceKeySchema,
} from './catalog-fields.ts';
import { quoteForMessage, toComparableName } from './catalog-text.ts';
import { PRODUCT_FAMILIES } from './families.ts';
import type { ProductFamily, ProductModelSeed, ProductTypeSeed } from './types.ts';

// The catalog of product types and part numbers is data, not code: a JSON file in this format
// ships with the repo (product-catalog.json) and `shelfwatch catalog import-models FILE` applies
// another one to a running server. docs/catalog.md describes the format for people. Every
// object is strict (an unknown field is refused) and every free text is checked for hidden
// characters (catalog-text.ts): an import is how a look-alike would reach the public picker.

/** The `format` value every catalog file carries. */
export const CATALOG_FILE_FORMAT = 'shelfwatch-catalog/1';

// Apple's part numbers: a base of four or five characters, then the country suffix and "/A".
const PART_NUMBER = /^[A-Z0-9]{4,5}[A-Z]{1,2}\/A$/;

const countryCodeSchema = z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter country code');

/** One orderable configuration in one country, with where its number was seen. */
export const catalogModelEntrySchema = z.strictObject({
  country: countryCodeSchema,
  part_number: z.string().regex(PART_NUMBER, 'must look like an Apple part number (MJQ34LL/A)'),
  name: buildCatalogTextSchema({ max: 200, emptyMessage: 'must name the model' }),
  /** Keys of the file's `sources` (at least one): where this number was seen. */
  source: z.array(sourceKeySchema).min(1, 'must name at least one source'),
  /**
   * True when only one public source shows this number: it is kept, but a buy-page read
   * should confirm it. Such a part names exactly that one source.
   */
  single_source: z.boolean().optional(),
  /** The date it was known to be no longer sold; absent while it is sold. */
  retired: catalogDateSchema.optional(),
});

/** One product type (what a search watches) with its models in every country. */
export const catalogTypeEntrySchema = z.strictObject({
  product_id: z.string().regex(/^[a-z0-9]{2,40}$/, 'must be lower-case letters and digits'),
  product_name: buildCatalogTextSchema({ max: 100, emptyMessage: 'must name the product type' }),
  family: z.enum(PRODUCT_FAMILIES as [ProductFamily, ...ProductFamily[]]),
  launched: catalogDateSchema.optional(),
  /** No longer sold anywhere from this date. */
  retired: catalogDateSchema.optional(),
  /** No longer sold in these countries (code to date), while still sold elsewhere. */
  retired_in: buildNullPrototypeRecord(countryCodeSchema, catalogDateSchema).optional(),
  /** Path of its buy page under a country's store, e.g. "/shop/buy-iphone/iphone-18-pro". */
  buy_page: z
    .string()
    .regex(/^\/shop\/buy-[a-z]+\/[a-z0-9-]+$/, 'must be a path like /shop/buy-iphone/iphone-17')
    .optional(),
  /**
   * Since when its buy page redirects to a page without product data (Apple retired it); the
   * page is kept for the record but no longer read.
   */
  buy_page_retired: catalogDateSchema.optional(),
  models: z.array(catalogModelEntrySchema),
});

/** A whole catalog file: types in picker order (current first), sources by key. */
export const catalogFileSchema = z.strictObject({
  format: z.literal(CATALOG_FILE_FORMAT),
  /** When the file's content was last checked, YYYY-MM-DD. */
  version: catalogDateSchema,
  sources: buildNullPrototypeRecord(
    sourceKeySchema,
    buildCatalogTextSchema({ max: 500, emptyMessage: 'must describe the source' }),
  ),
  product_types: z.array(catalogTypeEntrySchema),
});

/** A parsed catalog file. */
export type CatalogFile = z.infer<typeof catalogFileSchema>;
/** One type entry of a catalog file. */
export type CatalogTypeEntry = z.infer<typeof catalogTypeEntrySchema>;

/** The outcome of reading a catalog file: the file, or every problem found in it. */
export type CatalogFileResult = { ok: true; file: CatalogFile } | { ok: false; errors: string[] };

/** A property the file itself holds: never one every object inherits. */
function readOwn(node: unknown, key: PropertyKey): unknown {
  return typeof node === 'object' && node !== null && Object.hasOwn(node, key)
    ? (node as Record<PropertyKey, unknown>)[key]
    : undefined;
}

/** How an entry of an array is named: by its type or part rather than its position. */
function describeEntry(node: unknown, index: number): string {
  const id = readOwn(node, 'product_id');
  if (typeof id === 'string') return `product type ${quoteIfOdd(id)}`;
  const part = readOwn(node, 'part_number');
  const country = readOwn(node, 'country');
  if (typeof part === 'string') {
    return `part ${quoteIfOdd(part)}${typeof country === 'string' ? ` (${quoteIfOdd(country)})` : ''}`;
  }
  return `entry ${index + 1}`;
}

/** A value from the file shown as is when it is plain, quoted and escaped otherwise. */
function quoteIfOdd(value: string): string {
  return /^[A-Za-z0-9/_.-]{1,60}$/.test(value) ? value : quoteForMessage(value);
}

/** Describes where a problem is, naming the type and part rather than array positions. */
function describePath(json: unknown, path: readonly PropertyKey[]): string {
  const names: string[] = [];
  let node: unknown = json;
  for (const key of path) {
    node = readOwn(node, key);
    names.push(typeof key === 'number' ? describeEntry(node, key) : quoteIfOdd(String(key)));
  }
  return names.length === 0 ? 'file' : names.join(' > ');
}

/** A problem zod found, in the words this format's documentation uses. */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const fields = issue.keys.map(quoteForMessage).join(', ');
    return `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${fields}`;
  }
  if (issue.code === 'invalid_key') return issue.issues.map((inner) => inner.message).join('; ');
  return issue.message;
}

/** Checks what the schema alone cannot: duplicates, unknown sources, retirement dates. */
function findConsistencyErrors(file: CatalogFile): string[] {
  const errors: string[] = [];
  const typeIds = new Set<string>();
  const typeNames = new Map<string, string>();
  const parts = new Map<string, string>();
  for (const type of file.product_types) {
    const where = `product type ${type.product_id}`;
    if (typeIds.has(type.product_id)) errors.push(`${where}: listed twice`);
    typeIds.add(type.product_id);
    const namesake = typeNames.get(toComparableName(type.product_name));
    if (namesake !== undefined && namesake !== type.product_id) {
      errors.push(
        `${where} > product_name: ${quoteForMessage(type.product_name)} is already the name of product type ${namesake}`,
      );
    }
    typeNames.set(toComparableName(type.product_name), type.product_id);
    if (type.launched !== undefined && type.retired !== undefined && type.retired < type.launched) {
      errors.push(`${where}: retired ${type.retired} before its launch ${type.launched}`);
    }
    if (type.buy_page_retired !== undefined && type.buy_page === undefined) {
      errors.push(`${where}: buy_page_retired names no buy_page`);
    }
    for (const model of type.models) {
      const part = `${where} > part ${model.part_number} (${model.country})`;
      const key = `${model.country}|${model.part_number}`;
      const owner = parts.get(key);
      if (owner !== undefined) errors.push(`${part}: already listed under ${owner}`);
      parts.set(key, type.product_id);
      for (const source of model.source) {
        if (!Object.hasOwn(file.sources, source)) {
          errors.push(`${part}: unknown source ${quoteForMessage(source)}`);
        }
      }
      if (model.single_source === true && model.source.length !== 1) {
        errors.push(`${part}: single_source names ${model.source.length} sources; it needs one`);
      }
    }
  }
  return errors;
}

/**
 * Validates a catalog file's JSON (best read with parseCatalogJson), naming each bad entry by
 * its type and part number and the field.
 */
export function parseCatalogFile(json: unknown): CatalogFileResult {
  const parsed = catalogFileSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map(
        (issue) => `${describePath(json, issue.path)}: ${describeIssue(issue)}`,
      ),
    };
  }
  const errors = findConsistencyErrors(parsed.data);
  return errors.length === 0 ? { ok: true, file: parsed.data } : { ok: false, errors };
}

/** The retirement date of a model in the file: its own, its country's, or its type's. */
function getModelRetirement(
  type: CatalogTypeEntry,
  model: CatalogTypeEntry['models'][number],
): string | null {
  const countryRetired =
    type.retired_in !== undefined && Object.hasOwn(type.retired_in, model.country)
      ? type.retired_in[model.country]
      : undefined;
  return model.retired ?? countryRetired ?? type.retired ?? null;
}

/** The buy page a sync reads for a type: its page unless that page is retired. */
export function getActiveBuyPage(
  type: Pick<ProductTypeSeed, 'buy_page' | 'buy_page_retired_on'>,
): string | null {
  const isRetired = type.buy_page_retired_on !== undefined && type.buy_page_retired_on !== null;
  return isRetired ? null : (type.buy_page ?? null);
}

/** Label that opens the spelled-out sources of a part only one public source shows. */
export const SINGLE_SOURCE_LABEL = 'single source';

/**
 * A model's sources spelled out, as the database keeps them: "K: ... | S-U1: ...", opened by
 * "single source: " when only one public source shows the number.
 */
export function describeModelSources(
  file: Pick<CatalogFile, 'sources'>,
  model: Pick<CatalogTypeEntry['models'][number], 'source' | 'single_source'>,
): string {
  const spelled = model.source
    .map((key) => `${key}: ${Object.hasOwn(file.sources, key) ? file.sources[key] : ''}`)
    .join(' | ');
  return model.single_source === true ? `${SINGLE_SOURCE_LABEL}: ${spelled}` : spelled;
}

/** Turns a file into database rows: types in file order, models with sources spelled out. */
export function expandCatalogFile(file: CatalogFile): {
  types: ProductTypeSeed[];
  models: ProductModelSeed[];
} {
  const types: ProductTypeSeed[] = [];
  const models: ProductModelSeed[] = [];
  file.product_types.forEach((type, index) => {
    types.push({
      product_id: type.product_id,
      product_name: type.product_name,
      family: type.family,
      sort_order: index + 1,
      launched_on: type.launched ?? null,
      retired_on: type.retired ?? null,
      buy_page: type.buy_page ?? null,
      buy_page_retired_on: type.buy_page_retired ?? null,
    });
    for (const model of type.models) {
      models.push({
        product_id: type.product_id,
        country_code: model.country,
        part_number: model.part_number,
        display_name: model.name,
        source: describeModelSources(file, model),
        retired_on: getModelRetirement(type, model),
      });
    }
  });
  return { types, models };
}
