import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  diffCatalog,
  isEmptyDiff,
  summarizeDiff,
  type CatalogDiffSummary,
  type CatalogModelRow,
  type CatalogTypeRow,
} from '#shared/catalog/catalog-diff.ts';
import { parseCatalogJson } from '#shared/catalog/catalog-fields.ts';
import {
  expandCatalogFile,
  getActiveBuyPage,
  parseCatalogFile,
  type CatalogFile,
} from '#shared/catalog/catalog-file.ts';
import { quoteForMessage, toComparableName } from '#shared/catalog/catalog-text.ts';
import { BUNDLED_CATALOG } from '#shared/catalog/models.ts';
import type { Db, Executor } from '#server/db/database.ts';
import { listCountries } from '#server/db/repositories/catalog-repository.ts';
import {
  findLatestCatalogChange,
  insertCatalogChange,
  readCatalogRows,
} from '#server/db/repositories/catalog-changes-repository.ts';
import { markCatalogChanged } from './catalog-cache.ts';
import { notifyCatalogChanged } from './catalog-notify.ts';
import {
  CatalogFileError,
  toCatalogApplyError,
  writeCatalogRows,
} from './catalog-write-failure.ts';

export { CatalogFileError } from './catalog-write-failure.ts';

/** What applying a file did (or, for a dry run, would do). */
export type CatalogApplyResult = {
  summary: CatalogDiffSummary;
  isChanged: boolean;
  isApplied: boolean;
};

/** Today's date in UTC, YYYY-MM-DD: the retirement date of a model that stops being listed. */
export function getTodayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** SHA-256 of a file's canonical JSON, so the same content is recognised however it is spaced. */
export function hashCatalogFile(file: CatalogFile): string {
  return createHash('sha256').update(JSON.stringify(file)).digest('hex');
}

/** Reads and validates a catalog file from disk; throws CatalogFileError naming bad entries. */
export async function readCatalogFile(path: string): Promise<CatalogFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CatalogFileError(`Cannot read catalog file ${path}`, [
      error instanceof Error ? error.message : String(error),
    ]);
  }
  let json: unknown;
  try {
    // Without prototypes: a `__proto__` or `constructor` key is refused as a key, not followed.
    json = parseCatalogJson(text);
  } catch (error) {
    throw new CatalogFileError(`Catalog file ${path} is not valid JSON`, [
      error instanceof Error ? error.message : String(error),
    ]);
  }
  const result = parseCatalogFile(json);
  if (!result.ok) throw new CatalogFileError(`Catalog file ${path} is invalid`, result.errors);
  return result.file;
}

/**
 * The rows a file wants. A file listing every known type sets the picker order; a partial one
 * (say, one new launch) leaves the others' order alone and puts its new types first.
 */
function buildWantedRows(
  file: CatalogFile,
  current: readonly CatalogTypeRow[],
): { types: CatalogTypeRow[]; models: CatalogModelRow[] } {
  const expanded = expandCatalogFile(file);
  const fileIds = new Set(expanded.types.map((type) => type.product_id));
  const isComplete = current.every((type) => fileIds.has(type.product_id));
  const orderNow = new Map(current.map((type) => [type.product_id, type.sort_order]));
  const lowest = Math.min(1, ...current.map((type) => type.sort_order));
  const types = expanded.types.map((type, index) => ({
    product_id: type.product_id,
    product_name: type.product_name,
    family: type.family,
    sort_order: isComplete
      ? type.sort_order
      : (orderNow.get(type.product_id) ?? lowest - expanded.types.length + index),
    launched_on: type.launched_on ?? null,
    retired_on: type.retired_on ?? null,
    // A retired page stays in the file for the record; the database holds the page to read.
    buy_page: getActiveBuyPage(type),
  }));
  const models = expanded.models.map((model) => ({
    product_id: model.product_id,
    country_code: model.country_code,
    part_number: model.part_number,
    display_name: model.display_name,
    source: model.source ?? '',
    retired_on: model.retired_on ?? null,
  }));
  return { types, models };
}

async function checkCountries(db: Executor, models: readonly CatalogModelRow[]): Promise<void> {
  const known = new Set((await listCountries(db)).map((country) => country.country_code));
  const problems = models
    .filter((model) => !known.has(model.country_code))
    .map(
      (model) =>
        `product type ${model.product_id} > part ${model.part_number} (${model.country_code}): unknown country ${model.country_code}`,
    );
  if (problems.length > 0) {
    throw new CatalogFileError('The catalog file names countries the catalog lacks', problems);
  }
}

/**
 * Refuses an imported type named like another type still sold that the file leaves as it is:
 * the picker would show two entries people cannot tell apart. A retired type's name may be
 * reused, as Apple reuses names across generations. (The start-up seed is not held to this,
 * so that a release never fails to start over a name an import gave first.)
 */
function checkTypeNames(current: readonly CatalogTypeRow[], wanted: readonly CatalogTypeRow[]) {
  const fileIds = new Set(wanted.map((type) => type.product_id));
  const others = new Map(
    current
      .filter((type) => !fileIds.has(type.product_id) && type.retired_on === null)
      .map((type) => [toComparableName(type.product_name), type.product_id]),
  );
  const problems = wanted.flatMap((type) => {
    const namesake = others.get(toComparableName(type.product_name));
    return namesake === undefined
      ? []
      : [
          `product type ${type.product_id} > product_name: ${quoteForMessage(type.product_name)} is already the name of product type ${namesake}`,
        ];
  });
  if (problems.length > 0) {
    throw new CatalogFileError('The catalog file names types like others', problems);
  }
}

/**
 * Applies a catalog file in one transaction and logs it. An import retires the sold models of
 * the file's types that the file no longer lists; the start-up seed only adds and updates, so
 * models a sync added survive a restart. Nothing is written when `isDryRun` or on any error;
 * a database error is reported as a CatalogFileError naming the entry it came from, in our
 * words.
 */
export async function applyCatalogFile(
  db: Db,
  file: CatalogFile,
  options: { kind: 'seed' | 'import'; origin: string; isDryRun?: boolean; today?: string },
): Promise<CatalogApplyResult> {
  const today = options.today ?? getTodayUtc();
  const contentHash = hashCatalogFile(file);
  let outcome: CatalogApplyResult;
  try {
    outcome = await db.transaction().execute(async (trx) => {
      const current = await readCatalogRows(trx);
      const wanted = buildWantedRows(file, current.types);
      await checkCountries(trx, wanted.models);
      if (options.kind === 'import') checkTypeNames(current.types, wanted.types);
      const fileTypes = new Set(wanted.types.map((type) => type.product_id));
      const diff = diffCatalog(current, wanted, {
        today,
        isRetiredWhenMissing:
          options.kind === 'import' ? (model) => fileTypes.has(model.product_id) : undefined,
      });
      const summary = summarizeDiff(diff);
      if (options.isDryRun === true)
        return { summary, isChanged: !isEmptyDiff(diff), isApplied: false };
      await writeCatalogRows(trx, diff);
      await notifyCatalogChanged(trx);
      await insertCatalogChange(trx, {
        kind: options.kind,
        origin: options.origin,
        contentHash,
        isOk: true,
        summary,
        error: null,
      });
      return { summary, isChanged: !isEmptyDiff(diff), isApplied: true };
    });
  } catch (error) {
    throw toCatalogApplyError(error, options.origin);
  }
  if (outcome.isChanged && outcome.isApplied) markCatalogChanged();
  return outcome;
}

/**
 * Loads the catalog file bundled with this release unless this very content was seeded
 * before, so a restart never undoes what an import or sync changed since.
 */
export async function seedBundledCatalog(db: Db): Promise<CatalogApplyResult | undefined> {
  const seeded = await findLatestCatalogChange(db, 'seed', { isOkOnly: true });
  if (seeded?.content_hash === hashCatalogFile(BUNDLED_CATALOG)) return undefined;
  return await applyCatalogFile(db, BUNDLED_CATALOG, {
    kind: 'seed',
    origin: `bundled catalog ${BUNDLED_CATALOG.version}`,
  });
}
