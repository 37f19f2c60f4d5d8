import {
  diffCatalog,
  isEmptyDiff,
  summarizeDiff,
  type CatalogDiffSummary,
  type CatalogModelRow,
  type CatalogTypeRow,
} from '#shared/catalog/catalog-diff.ts';
import {
  normalizeProductName,
  parseBuyPage,
  type BuyPageProduct,
} from '#shared/catalog/buy-page.ts';
import { buildBuyPageUrl, buildPickupHeaders, isSupportedCountry } from '#shared/upstream/index.ts';
import type { Db } from '#server/db/database.ts';
import {
  insertCatalogChange,
  readCatalogRows,
  writeProductModels,
  writeProductTypes,
} from '#server/db/repositories/catalog-changes-repository.ts';
import { markCatalogChanged } from './catalog-cache.ts';
import { notifyCatalogChanged } from './catalog-notify.ts';
import { getTodayUtc } from './apply-catalog-file.ts';

// `shelfwatch catalog sync-models`: read every buy page the catalog knows, in every country a
// type on it is sold, and bring the models in line with what the pages offer. All or nothing:
// a page that fails or offers no products stops the sync before anything is written.

/** One buy page of one country, and the product types the catalog files under it. */
export type BuyPageVisit = {
  countryCode: string;
  page: string;
  url: string;
  types: CatalogTypeRow[];
};

/** A sync that could not finish; `problems` names each page that failed and why. */
export class ModelSyncError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Model sync failed; nothing was changed:\n  ${problems.join('\n  ')}`);
    this.name = 'ModelSyncError';
    this.problems = problems;
  }
}

/** What a sync did (or, for a dry run, would do). */
export type ModelSyncResult = {
  summary: CatalogDiffSummary;
  pages: { url: string; products: number }[];
  /** Products a page offered whose product type could not be told; left out. */
  skipped: string[];
  isApplied: boolean;
};

/** Options of a sync. */
export type ModelSyncOptions = {
  baseUrl: string;
  fetchPage?: typeof fetch;
  isDryRun?: boolean;
  /** Pause between two page requests, to stay inside Apple's per-address budget. */
  pageIntervalMs?: number;
  today?: string;
  /** Where the sync was started from, for the change log ("command line", "schedule"). */
  trigger?: string;
};

/** The pages to read: each buy page in each country where a type filed under it is sold. */
export function planBuyPageVisits(
  baseUrl: string,
  types: readonly CatalogTypeRow[],
  models: readonly CatalogModelRow[],
): BuyPageVisit[] {
  const soldIn = new Map<string, Set<string>>();
  for (const model of models) {
    if (model.retired_on !== null) continue;
    const countries = soldIn.get(model.product_id) ?? new Set<string>();
    countries.add(model.country_code);
    soldIn.set(model.product_id, countries);
  }
  const visits = new Map<string, BuyPageVisit>();
  for (const type of types) {
    if (type.buy_page === null || type.retired_on !== null) continue;
    for (const countryCode of [...(soldIn.get(type.product_id) ?? [])].sort()) {
      if (!isSupportedCountry(countryCode)) continue;
      const key = `${countryCode}|${type.buy_page}`;
      const visit = visits.get(key) ?? {
        countryCode,
        page: type.buy_page,
        url: buildBuyPageUrl(baseUrl, countryCode, type.buy_page),
        types: [],
      };
      visit.types.push(type);
      visits.set(key, visit);
    }
  }
  return [...visits.values()];
}

/**
 * The product type a page's product belongs to: Apple's family key when it is one of the page's
 * types, else the longest type name its name starts with, else the page's only type.
 */
export function matchProductType(
  product: BuyPageProduct,
  types: readonly CatalogTypeRow[],
): CatalogTypeRow | undefined {
  const byFamily = types.find((type) => type.product_id === product.familyType);
  if (byFamily !== undefined) return byFamily;
  if (product.name !== null) {
    const name = product.name;
    const byName = [...types]
      .filter((type) => name.startsWith(`${normalizeProductName(type.product_name)} `))
      .sort((a, b) => b.product_name.length - a.product_name.length)[0];
    if (byName !== undefined) return byName;
  }
  return types.length === 1 ? types[0] : undefined;
}

/** A product's name: the page's own, or the type's name with the page's capacity and colour. */
function nameProduct(product: BuyPageProduct, type: CatalogTypeRow): string | undefined {
  if (product.name !== null) return product.name;
  if (product.capacity === null || product.color === null) return undefined;
  return normalizeProductName(`${type.product_name} ${product.capacity} ${product.color}`);
}

async function readPage(
  visit: BuyPageVisit,
  fetchPage: typeof fetch,
): Promise<{ products: BuyPageProduct[] } | { problem: string }> {
  const headers = {
    ...buildPickupHeaders(visit.countryCode, visit.url),
    Accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
  };
  let response: Response;
  try {
    response = await fetchPage(visit.url, { headers, redirect: 'follow' });
  } catch (error) {
    return {
      problem: `${visit.url}: request failed (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (!response.ok) return { problem: `${visit.url}: HTTP ${response.status}` };
  try {
    const read = parseBuyPage(await response.text());
    if (read.products.length === 0) {
      const shapes =
        read.hasSelectionData || read.hasMetrics
          ? 'its product data is empty'
          : 'it carries neither PRODUCT_SELECTION_BOOTSTRAP nor script#metrics';
      return { problem: `${visit.url}: no products (${shapes})` };
    }
    return { products: read.products };
  } catch (error) {
    return { problem: `${visit.url}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Reads every buy page, then adds the models they offer that the catalog lacks, retires the
 * ones of their types no page lists any more, renames changed ones, and logs the change; in one
 * transaction. Throws ModelSyncError (after logging the failure) when any page fails.
 */
export async function syncModelsFromBuyPages(
  db: Db,
  options: ModelSyncOptions,
): Promise<ModelSyncResult> {
  const today = options.today ?? getTodayUtc();
  const fetchPage = options.fetchPage ?? fetch;
  const origin = `${options.trigger ?? 'sync'} from ${options.baseUrl}`;
  const current = await readCatalogRows(db);
  const visits = planBuyPageVisits(options.baseUrl, current.types, current.models);
  const problems: string[] = [];
  const skipped: string[] = [];
  const pages: ModelSyncResult['pages'] = [];
  // By country and part: a part offered on two pages is written once.
  const wanted = new Map<string, CatalogModelRow>();
  const claimed = new Set<string>();
  const modelsNow = new Map(
    current.models.map((model) => [`${model.country_code}|${model.part_number}`, model]),
  );

  for (const [index, visit] of visits.entries()) {
    if (index > 0 && (options.pageIntervalMs ?? 0) > 0) await wait(options.pageIntervalMs ?? 0);
    const read = await readPage(visit, fetchPage);
    if ('problem' in read) {
      problems.push(read.problem);
      continue;
    }
    pages.push({ url: visit.url, products: read.products.length });
    for (const type of visit.types) claimed.add(`${visit.countryCode}|${type.product_id}`);
    for (const product of read.products) {
      const known = modelsNow.get(`${visit.countryCode}|${product.partNumber}`);
      const type = matchProductType(product, visit.types);
      if (type === undefined) {
        // A part the catalog has under another type keeps it; only unknown ones are skipped.
        if (known === undefined)
          skipped.push(
            `${product.partNumber} (${visit.countryCode}) on ${visit.url}: product type unclear`,
          );
        else
          wanted.set(`${visit.countryCode}|${product.partNumber}`, { ...known, retired_on: null });
        continue;
      }
      const name = nameProduct(product, type) ?? known?.display_name;
      if (name === undefined) {
        skipped.push(`${product.partNumber} (${visit.countryCode}) on ${visit.url}: no name`);
        continue;
      }
      wanted.set(`${visit.countryCode}|${product.partNumber}`, {
        product_id: type.product_id,
        country_code: visit.countryCode,
        part_number: product.partNumber,
        display_name: name,
        source: known?.source ?? `buy page ${visit.url}, read ${today}`,
        retired_on: null,
      });
    }
  }
  if (visits.length === 0) problems.push('no product type of the catalog names a buy page');

  if (problems.length > 0) {
    const error = new ModelSyncError(problems);
    await insertCatalogChange(db, {
      kind: 'sync',
      origin,
      contentHash: null,
      isOk: false,
      summary: { pages, problems },
      error: error.message,
    });
    throw error;
  }

  const diff = diffCatalog(
    current,
    { types: [], models: [...wanted.values()] },
    {
      today,
      isRetiredWhenMissing: (model) => claimed.has(`${model.country_code}|${model.product_id}`),
    },
  );
  const summary = summarizeDiff(diff);
  if (options.isDryRun === true) return { summary, pages, skipped, isApplied: false };
  await db.transaction().execute(async (trx) => {
    await writeProductTypes(trx, diff.typeWrites);
    await writeProductModels(trx, diff.modelWrites);
    await notifyCatalogChanged(trx);
    await insertCatalogChange(trx, {
      kind: 'sync',
      origin,
      contentHash: null,
      isOk: true,
      summary: { ...summary, pages, skipped },
      error: null,
    });
  });
  if (!isEmptyDiff(diff)) markCatalogChanged();
  return { summary, pages, skipped, isApplied: true };
}
