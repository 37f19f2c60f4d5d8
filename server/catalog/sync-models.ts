import {
  diffCatalog,
  isEmptyDiff,
  summarizeDiff,
  type CatalogDiffSummary,
  type CatalogModelRow,
  type CatalogTypeRow,
} from '#shared/catalog/catalog-diff.ts';
import { normalizeProductName, type BuyPageProduct } from '#shared/catalog/buy-page.ts';
import { buildBuyPageUrl, isSupportedCountry } from '#shared/upstream/index.ts';
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
import { readBuyPage, type BuyPageOutcome, type BuyPageVisit } from './buy-page-fetch.ts';
import { decideRetiredPages, retireBuyPages } from './retire-buy-pages.ts';

// `shelfwatch catalog sync-models`: read every buy page the catalog knows, in every country a
// type on it is sold, and bring the models in line with what the pages offer. A page that
// fails is reported and the pages that were read still apply; a page that redirects away in
// every country it was read in is retired (not read again). Only a sync that read nothing at
// all fails as a whole.

/** One buy page of one country, and the product types the catalog files under it. */
export type PlannedVisit = BuyPageVisit & { types: CatalogTypeRow[] };

/** A sync that could not read a single page; `problems` names each page and why. */
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
  /** Pages that redirect away, no longer read: "/shop/buy-iphone/iphone-17-pro (AU): 301 to …". */
  pagesRetired: string[];
  /** Pages that could not be read, each with why; the other pages still applied. */
  problems: string[];
  /** Pages read through one shape while the other was broken, each with what was broken. */
  warnings: string[];
  /** Products a page offered that could not be filed (type or name unclear); left out. */
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
): PlannedVisit[] {
  const soldIn = new Map<string, Set<string>>();
  for (const model of models) {
    if (model.retired_on !== null) continue;
    const countries = soldIn.get(model.product_id) ?? new Set<string>();
    countries.add(model.country_code);
    soldIn.set(model.product_id, countries);
  }
  const visits = new Map<string, PlannedVisit>();
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
 * types, else the longest type name its name or Apple's title starts with, else the page's only
 * type.
 */
export function matchProductType(
  product: BuyPageProduct,
  types: readonly CatalogTypeRow[],
): CatalogTypeRow | undefined {
  const byFamily = types.find((type) => type.product_id === product.familyType);
  if (byFamily !== undefined) return byFamily;
  for (const label of [product.name, product.title]) {
    if (label === null) continue;
    const byName = [...types]
      .filter((type) => `${label} `.startsWith(`${normalizeProductName(type.product_name)} `))
      .sort((a, b) => b.product_name.length - a.product_name.length)[0];
    if (byName !== undefined) return byName;
  }
  return types.length === 1 ? types[0] : undefined;
}

/**
 * A product's name: Apple's own full name, or one built from Apple's model title (else the
 * type's name) and the configuration's display values. `isApplesName` tells the two apart: only
 * Apple's own name renames a part the catalog already knows.
 */
export function nameProduct(
  product: BuyPageProduct,
  type: CatalogTypeRow,
): { name: string; isApplesName: boolean } | undefined {
  if (product.name !== null) return { name: product.name, isApplesName: true };
  if (product.details === null) return undefined;
  const title = product.title ?? type.product_name;
  return { name: normalizeProductName([title, ...product.details].join(' ')), isApplesName: false };
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Reads every page, one after another with the pause between them. */
async function readPages(
  visits: readonly PlannedVisit[],
  options: ModelSyncOptions,
): Promise<{ visit: PlannedVisit; outcome: BuyPageOutcome }[]> {
  const fetchPage = options.fetchPage ?? fetch;
  const outcomes: { visit: PlannedVisit; outcome: BuyPageOutcome }[] = [];
  for (const [index, visit] of visits.entries()) {
    if (index > 0 && (options.pageIntervalMs ?? 0) > 0) await wait(options.pageIntervalMs ?? 0);
    outcomes.push({ visit, outcome: await readBuyPage(visit, fetchPage) });
  }
  return outcomes;
}

/** The models the read pages want, by country and part, and which types they speak for. */
function collectWantedModels(
  reads: readonly { visit: PlannedVisit; products: readonly BuyPageProduct[] }[],
  currentModels: readonly CatalogModelRow[],
  today: string,
): { wanted: Map<string, CatalogModelRow>; claimed: Set<string>; skipped: string[] } {
  const modelsNow = new Map(
    currentModels.map((model) => [`${model.country_code}|${model.part_number}`, model]),
  );
  // By country and part: a part offered on two pages is written once.
  const wanted = new Map<string, CatalogModelRow>();
  const claimed = new Set<string>();
  const skipped: string[] = [];
  for (const { visit, products } of reads) {
    for (const type of visit.types) claimed.add(`${visit.countryCode}|${type.product_id}`);
    for (const product of products) {
      const key = `${visit.countryCode}|${product.partNumber}`;
      const known = modelsNow.get(key);
      const where = `${product.partNumber} (${visit.countryCode}) on ${visit.url}`;
      const type = matchProductType(product, visit.types);
      if (type === undefined) {
        // A part the catalog has under another type keeps it; only unknown ones are skipped.
        if (known === undefined) skipped.push(`${where}: product type unclear`);
        else wanted.set(key, { ...known, retired_on: null });
        continue;
      }
      const named = nameProduct(product, type);
      // A name built from display values names a new part; it does not rename a known one.
      const name = named?.isApplesName === true ? named.name : (known?.display_name ?? named?.name);
      if (name === undefined) {
        skipped.push(`${where}: no name`);
        continue;
      }
      wanted.set(key, {
        product_id: type.product_id,
        country_code: visit.countryCode,
        part_number: product.partNumber,
        display_name: name,
        source: known?.source ?? `buy page ${visit.url}, read ${today}`,
        retired_on: null,
      });
    }
  }
  return { wanted, claimed, skipped };
}

/**
 * Reads every buy page, then adds the models they offer that the catalog lacks, retires the
 * ones of their types no page lists any more, renames changed ones, retires pages that
 * redirect away, and logs the change; in one transaction. Pages that fail are reported in
 * `problems`; ModelSyncError (after logging the failure) only when no page could be read.
 */
export async function syncModelsFromBuyPages(
  db: Db,
  options: ModelSyncOptions,
): Promise<ModelSyncResult> {
  const today = options.today ?? getTodayUtc();
  const origin = `${options.trigger ?? 'sync'} from ${options.baseUrl}`;
  const current = await readCatalogRows(db);
  const visits = planBuyPageVisits(options.baseUrl, current.types, current.models);
  const outcomes = await readPages(visits, options);

  const reads: { visit: PlannedVisit; products: BuyPageProduct[] }[] = [];
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const { visit, outcome } of outcomes) {
    if (outcome.kind === 'read') {
      reads.push({ visit, products: outcome.products });
      warnings.push(...outcome.notes);
    } else if (outcome.kind === 'failed') {
      problems.push(outcome.problem);
    }
  }
  const retirement = decideRetiredPages(outcomes);
  problems.push(...retirement.problems);
  const pages = reads.map(({ visit, products }) => ({ url: visit.url, products: products.length }));
  if (visits.length === 0) problems.push('no product type of the catalog names a buy page');

  if (reads.length === 0 && retirement.retired.length === 0) {
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

  const { wanted, claimed, skipped } = collectWantedModels(reads, current.models, today);
  const diff = diffCatalog(
    current,
    { types: retireBuyPages(current.types, retirement.retired), models: [...wanted.values()] },
    {
      today,
      isRetiredWhenMissing: (model) => claimed.has(`${model.country_code}|${model.product_id}`),
    },
  );
  const summary = summarizeDiff(diff);
  const pagesRetired = retirement.retired.map((page) => page.description);
  const result = { summary, pages, pagesRetired, problems, warnings, skipped };
  if (options.isDryRun === true) return { ...result, isApplied: false };
  await db.transaction().execute(async (trx) => {
    await writeProductTypes(trx, diff.typeWrites);
    await writeProductModels(trx, diff.modelWrites);
    await notifyCatalogChanged(trx);
    await insertCatalogChange(trx, {
      kind: 'sync',
      origin,
      contentHash: null,
      isOk: true,
      summary: { ...summary, pages, pagesRetired, problems, warnings, skipped },
      error: null,
    });
  });
  if (!isEmptyDiff(diff)) markCatalogChanged();
  return { ...result, isApplied: true };
}
