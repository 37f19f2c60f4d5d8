import { getProductFamily, isModelSold, type ProductModelSeed } from '#shared/catalog/index.ts';
import type { SimCatalog } from './sim-catalog.ts';

// Which of the parts a request asks an answer carries, as Apple's 2025-2026 answers show
// (../shared/reference/apple/README.md, "What real 2025-2026 answers show").

/** A request's query string as Fastify parses it. */
export type PickupQuery = Record<string, string | string[] | undefined>;

/**
 * Apple answers at most this many parts per request; later ones come back missing, as bad
 * parts do (Dgon5000/iphone-stock-watch-hk: "Apple returns no more than 20 part numbers per
 * request", MAX_PARTS_PER_REQUEST = 20, measured).
 */
export const ANSWERED_PARTS_LIMIT = 20;

/** Reads one query parameter: the first value, trimmed; undefined when absent or blank. */
export function readParam(query: PickupQuery, name: string): string | undefined {
  const raw = query[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** `parts.0`, `parts.1`, ... in index order, duplicates dropped as Apple's overlay would. */
export function readAskedParts(query: PickupQuery): string[] {
  const indexed = Object.keys(query)
    .map((key) => /^parts\.(\d+)$/.exec(key))
    .filter((found): found is RegExpExecArray => found !== null)
    .map((found) => ({ index: Number(found[1]), value: readParam(query, found[0]) }))
    .sort((a, b) => a.index - b.index);
  const parts: string[] = [];
  for (const { value } of indexed) {
    if (value !== undefined && !parts.includes(value)) parts.push(value);
  }
  return parts;
}

/**
 * The models an answer reports, in request order: the first ANSWERED_PARTS_LIMIT parts asked,
 * less those the country does not sell. An empty list means Apple's empty-content answer:
 * nothing asked is sellable there, or only Apple Watch cases were asked (a case answers only
 * with a band of its page: ENCHIGO/apple-pickup-watcher issue #24 and PR #25).
 */
export function selectAnsweredModels(
  catalog: Pick<SimCatalog, 'findModel'>,
  countryCode: string,
  partNumbers: readonly string[],
): ProductModelSeed[] {
  const models = partNumbers
    .slice(0, ANSWERED_PARTS_LIMIT)
    .map((partNumber) => catalog.findModel(countryCode, partNumber))
    .filter((model): model is ProductModelSeed => model !== undefined);
  return models.every(isWatchCase) ? [] : models;
}

/** Whether a model is an Apple Watch case: its product type's family is `watch`. */
export function isWatchCase(model: Pick<ProductModelSeed, 'product_id'>): boolean {
  return getProductFamily(model.product_id) === 'watch';
}

/** Whether the catalog marks the model retired in its country (`retired_on` set). */
export function isRetired(model: Pick<ProductModelSeed, 'retired_on'>): boolean {
  return !isModelSold(model);
}
