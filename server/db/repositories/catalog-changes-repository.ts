import { sql, type Selectable } from 'kysely';
import type { CatalogModelRow, CatalogTypeRow } from '#shared/catalog/catalog-diff.ts';
import type { Executor } from '../database.ts';
import type { CatalogChangesTable } from '../schema.ts';
import { lockCatalogForChange } from '../locks.ts';
import { refreshSearchInventory } from './search-inventory-repository.ts';
import { isModelUnretiredByAnswers } from './upstream-knowledge-repository.ts';

/** One logged catalog change. */
export type CatalogChangeRow = Selectable<CatalogChangesTable>;

/** Every product type and model with its lifecycle fields, for working out a change. */
export async function readCatalogRows(
  db: Executor,
): Promise<{ types: CatalogTypeRow[]; models: CatalogModelRow[] }> {
  const types = await db
    .selectFrom('product_types')
    .select([
      'product_id',
      'product_name',
      'family',
      'sort_order',
      'launched_on',
      'retired_on',
      'buy_page',
    ])
    .orderBy('sort_order')
    .orderBy('product_id')
    .execute();
  const models = await db
    .selectFrom('product_models')
    .select(['product_id', 'country_code', 'part_number', 'display_name', 'source', 'retired_on'])
    .orderBy('country_code')
    .orderBy('part_number')
    .execute();
  return { types, models };
}

/** Inserts or updates product types by id (every column). */
export async function writeProductTypes(
  db: Executor,
  types: readonly CatalogTypeRow[],
): Promise<void> {
  if (types.length === 0) return;
  await db
    .insertInto('product_types')
    .values([...types])
    .onConflict((conflict) =>
      conflict.column('product_id').doUpdateSet((eb) => ({
        product_name: eb.ref('excluded.product_name'),
        family: eb.ref('excluded.family'),
        sort_order: eb.ref('excluded.sort_order'),
        launched_on: eb.ref('excluded.launched_on'),
        retired_on: eb.ref('excluded.retired_on'),
        buy_page: eb.ref('excluded.buy_page'),
      })),
    )
    .execute();
}

/**
 * Inserts or updates models by country and part number (every column). Call it in a
 * transaction: the catalog's lock it takes lasts until that transaction ends.
 */
export async function writeProductModels(
  db: Executor,
  models: readonly CatalogModelRow[],
): Promise<void> {
  if (models.length === 0) return;
  // Before the models change: a writer of searches or stores in flight (which may have read
  // them as they were) finishes first, and its rows are then among those refreshed below.
  await lockCatalogForChange(db);
  // Chunked to stay well under PostgreSQL's parameter limit.
  for (let start = 0; start < models.length; start += 500) {
    await db
      .insertInto('product_models')
      .values(models.slice(start, start + 500))
      .onConflict((conflict) =>
        conflict.columns(['country_code', 'part_number']).doUpdateSet((eb) => ({
          product_id: eb.ref('excluded.product_id'),
          display_name: eb.ref('excluded.display_name'),
          source: eb.ref('excluded.source'),
          retired_on: eb.ref('excluded.retired_on'),
        })),
      )
      .execute();
  }
  // A model added to (or moved between) product types changes what their searches show.
  await refreshSearchInventory(db, {
    productIds: [...new Set(models.map((model) => model.product_id))],
    partNumbers: [...new Set(models.map((model) => model.part_number))],
  });
}

/** Logs one catalog change (or a failed attempt). */
export async function insertCatalogChange(
  db: Executor,
  change: {
    kind: CatalogChangeRow['kind'];
    origin: string;
    contentHash: string | null;
    isOk: boolean;
    summary: unknown;
    error: string | null;
  },
): Promise<void> {
  await db
    .insertInto('catalog_changes')
    .values({
      kind: change.kind,
      origin: change.origin,
      content_hash: change.contentHash,
      is_ok: change.isOk,
      summary: JSON.stringify(change.summary),
      error: change.error,
    })
    .execute();
}

/** The latest logged change of a kind (successful only when `isOkOnly`), or undefined. */
export async function findLatestCatalogChange(
  db: Executor,
  kind: CatalogChangeRow['kind'],
  options: { isOkOnly?: boolean } = {},
): Promise<CatalogChangeRow | undefined> {
  let query = db.selectFrom('catalog_changes').selectAll().where('kind', '=', kind);
  if (options.isOkOnly === true) query = query.where('is_ok', '=', true);
  return await query.orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst();
}

/**
 * Product types someone can start watching: not retired, with a model sold somewhere, each
 * with the countries where it has a model sold (a type retired in one country is still offered
 * in the others).
 */
export async function listCurrentProductTypes(
  db: Executor,
): Promise<{ product_id: string; product_name: string; sold_in: string[] }[]> {
  return await db
    .selectFrom('product_types as t')
    .innerJoin('product_models as m', 'm.product_id', 't.product_id')
    .select(['t.product_id', 't.product_name'])
    .select(sql<string[]>`array_agg(distinct m.country_code order by m.country_code)`.as('sold_in'))
    .where('t.retired_on', 'is', null)
    .where('m.retired_on', 'is', null)
    .where(isModelUnretiredByAnswers('m'))
    .groupBy(['t.product_id', 't.product_name', 't.sort_order'])
    .orderBy('t.sort_order')
    .orderBy('t.product_id')
    .execute();
}

/**
 * Countries where a product type is sold: those with a model not retired, none when the type
 * itself is retired.
 */
export async function listProductTypeCountries(db: Executor, productId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('product_types as t')
    .innerJoin('product_models as m', 'm.product_id', 't.product_id')
    .select('m.country_code')
    .distinct()
    .where('t.product_id', '=', productId)
    .where('t.retired_on', 'is', null)
    .where('m.retired_on', 'is', null)
    .where(isModelUnretiredByAnswers('m'))
    .orderBy('m.country_code')
    .execute();
  return rows.map((row) => row.country_code);
}
