import catalogJson from './product-catalog.json' with { type: 'json' };
import { expandCatalogFile, parseCatalogFile, type CatalogFile } from './catalog-file.ts';
import type { ProductModelSeed, ProductTypeSeed } from './types.ts';

// The product catalog ships as data (product-catalog.json, format in catalog-file.ts): a
// launch is an edit to that file or a `shelfwatch catalog import-models` run, not code.

function loadBundledCatalog(): CatalogFile {
  const result = parseCatalogFile(catalogJson);
  if (!result.ok) throw new Error(`product-catalog.json is invalid:\n${result.errors.join('\n')}`);
  return result.file;
}

/** The catalog file bundled with this release, validated. */
export const BUNDLED_CATALOG: CatalogFile = loadBundledCatalog();

const expanded = expandCatalogFile(BUNDLED_CATALOG);

/** Product types of the bundled catalog, in picker order (current types first). */
export const PRODUCT_TYPE_SEEDS: readonly ProductTypeSeed[] = expanded.types;

/** Every model of the bundled catalog in every country, retired ones included. */
export const PRODUCT_MODEL_SEEDS: readonly ProductModelSeed[] = expanded.models;

/** Whether a model is sold: not retired (retired_on unset or null). */
export function isModelSold(model: Pick<ProductModelSeed, 'retired_on'>): boolean {
  return model.retired_on === undefined || model.retired_on === null;
}

/**
 * Product types someone can start watching: not retired and with a model sold in some
 * country, in picker order. Retired types stay in the catalog for the searches that use them.
 */
export function listCurrentProductTypes(
  types: readonly ProductTypeSeed[],
  models: readonly ProductModelSeed[],
): ProductTypeSeed[] {
  const sold = new Set(models.filter(isModelSold).map((model) => model.product_id));
  return types.filter(
    (type) =>
      (type.retired_on === undefined || type.retired_on === null) && sold.has(type.product_id),
  );
}
