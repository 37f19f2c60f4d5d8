import { sql } from 'kysely';
import type { CatalogModelRow, CatalogTypeRow } from '#shared/catalog/catalog-diff.ts';
import type { Executor } from '#server/db/database.ts';
import {
  writeProductModels,
  writeProductTypes,
} from '#server/db/repositories/catalog-changes-repository.ts';

// PostgreSQL's own messages ("invalid byte sequence for encoding "UTF8": 0x00") name no entry
// of the file and speak of the database's insides. A write that fails is therefore traced to
// the row that caused it (the rows are written again in halves, inside savepoints of the same
// transaction, which is rolled back anyway) and reported in our words.

/** A catalog file that cannot be applied; `problems` names each bad entry. */
export class CatalogFileError extends Error {
  readonly problems: readonly string[];
  constructor(message: string, problems: readonly string[], options?: { cause?: unknown }) {
    super(problems.length === 0 ? message : `${message}:\n  ${problems.join('\n  ')}`, options);
    this.name = 'CatalogFileError';
    this.problems = problems;
  }
}

/** Our words for a PostgreSQL error code (SQLSTATE), by the code or its class. */
const SQLSTATE_WORDS: Readonly<Record<string, string>> = {
  '22021': 'holds a character the database cannot store (NUL or a broken one)',
  '22P05': 'holds a character the database cannot store',
  '22001': 'holds a value too long for the database',
  '23502': 'leaves out a value the database requires',
  '23503': 'refers to something the catalog lacks',
  '23505': 'clashes with an entry the catalog already has',
  '23514': "breaks a rule of the catalog's tables",
  '22': 'holds a value the database cannot store',
  '23': "breaks a rule of the catalog's tables",
  '08': 'the connection to the database was lost',
  '57': 'the database stopped the change (it was shut down or restarted)',
  '53': 'the database ran out of resources (disk, memory or connections)',
  '40': 'the database gave up the change because another ran at the same time; try again',
};

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

/** A file's field for a database column, to name the field of the entry at fault. */
const COLUMN_FIELDS: Readonly<Record<string, string>> = {
  product_name: 'product_name',
  family: 'family',
  launched_on: 'launched',
  retired_on: 'retired',
  buy_page: 'buy_page',
  display_name: 'name',
  source: 'source',
  country_code: 'country',
  part_number: 'part_number',
};

function readCode(error: unknown): string | undefined {
  const code: unknown =
    typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function isSqlState(code: string | undefined): code is string {
  // A socket's EPIPE has the shape of a SQLSTATE too.
  return code !== undefined && !NETWORK_CODES.has(code) && /^[0-9A-Z]{5}$/.test(code);
}

/** Whether an error is about the data written (SQLSTATE class 22 or 23), so a row caused it. */
function isRowError(error: unknown): boolean {
  const code = readCode(error);
  return isSqlState(code) && (code.startsWith('22') || code.startsWith('23'));
}

/** A database failure in our words with its code to look up; never the server's message. */
export function describeDatabaseFailure(error: unknown): string {
  const code = readCode(error);
  if (isSqlState(code)) {
    const words = SQLSTATE_WORDS[code] ?? SQLSTATE_WORDS[code.slice(0, 2)];
    return `${words ?? 'the database refused the change'} (SQLSTATE ${code})`;
  }
  return `the database could not be reached (${code ?? 'no answer'})`;
}

/** The file's name for a row: its type, and its part and country for a model. */
function describeRow(row: CatalogTypeRow | CatalogModelRow, error: unknown): string {
  const where =
    'part_number' in row
      ? `product type ${row.product_id} > part ${row.part_number} (${row.country_code})`
      : `product type ${row.product_id}`;
  const column = (error as { column?: unknown }).column;
  const columnField = typeof column === 'string' ? COLUMN_FIELDS[column] : undefined;
  const nulField = Object.entries(row).find(
    ([, value]) => typeof value === 'string' && value.includes('\u0000'),
  )?.[0];
  const field = columnField ?? (nulField === undefined ? undefined : COLUMN_FIELDS[nulField]);
  return field === undefined ? where : `${where} > ${field}`;
}

/** The error writing `rows` raises, the writes undone; undefined when they succeed (and stay). */
async function tryWrite<T>(
  trx: Executor,
  rows: readonly T[],
  write: (trx: Executor, rows: readonly T[]) => Promise<void>,
): Promise<unknown> {
  await sql`savepoint catalog_probe`.execute(trx);
  try {
    await write(trx, rows);
    await sql`release savepoint catalog_probe`.execute(trx);
    return undefined;
  } catch (error) {
    await sql`rollback to savepoint catalog_probe`.execute(trx);
    await sql`release savepoint catalog_probe`.execute(trx);
    return error ?? new Error('write failed');
  }
}

/** The first row whose write fails with a data error, by halving; rows that succeed stay. */
async function findFailingRow<T>(
  trx: Executor,
  rows: readonly T[],
  write: (trx: Executor, rows: readonly T[]) => Promise<void>,
): Promise<{ row: T; error: unknown } | undefined> {
  if (rows.length === 0) return undefined;
  const error = await tryWrite(trx, rows, write);
  if (error === undefined || !isRowError(error)) return undefined;
  const [only] = rows;
  if (rows.length === 1 && only !== undefined) return { row: only, error };
  const middle = Math.ceil(rows.length / 2);
  return (
    (await findFailingRow(trx, rows.slice(0, middle), write)) ??
    (await findFailingRow(trx, rows.slice(middle), write))
  );
}

/**
 * Writes a change's types, then its models. When PostgreSQL refuses the data, the row at
 * fault is found and a CatalogFileError names it; the caller's transaction must then end.
 */
export async function writeCatalogRows(
  trx: Executor,
  writes: { typeWrites: readonly CatalogTypeRow[]; modelWrites: readonly CatalogModelRow[] },
): Promise<void> {
  await sql`savepoint catalog_rows`.execute(trx);
  try {
    // Types first: models reference them.
    await writeProductTypes(trx, writes.typeWrites);
    await writeProductModels(trx, writes.modelWrites);
    return;
  } catch (error) {
    if (!isRowError(error)) throw error;
    await sql`rollback to savepoint catalog_rows`.execute(trx);
    const culprit =
      (await findFailingRow(trx, writes.typeWrites, writeProductTypes)) ??
      (await findFailingRow(trx, writes.modelWrites, writeProductModels));
    const problem =
      culprit === undefined
        ? describeDatabaseFailure(error)
        : `${describeRow(culprit.row, culprit.error)}: ${describeDatabaseFailure(culprit.error)}`;
    throw new CatalogFileError('Nothing was changed: the database refused an entry', [problem], {
      cause: error,
    });
  }
}

/** Whether an error came from PostgreSQL (a SQLSTATE) or from reaching it (a socket code). */
function isDatabaseFailure(error: unknown): boolean {
  const code = readCode(error);
  return isSqlState(code) || (code !== undefined && NETWORK_CODES.has(code));
}

/**
 * A failure of applying a file, for people: one that names its entries as it is, a database
 * failure in our words naming what was applied (the original kept as `cause` for logs). Any
 * other error (a bug) is returned as it is.
 */
export function toCatalogApplyError(error: unknown, origin: string): unknown {
  if (error instanceof CatalogFileError || !isDatabaseFailure(error)) return error;
  return new CatalogFileError(
    `Nothing was changed: ${origin} could not be applied`,
    [describeDatabaseFailure(error)],
    { cause: error },
  );
}
