import { sql, type Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

/** The schema holding the product's tables (pg-boss keeps its jobs in a schema of its own). */
export const PRODUCT_SCHEMA = 'public';

/** Kysely's bookkeeping: the applied list travels in the backup header, the lock never. */
const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/** A product table and the columns a backup carries (generated columns are recomputed). */
export type ProductTable = { name: string; columns: string[] };

/** Quotes an identifier for SQL text built outside kysely (COPY statements). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A product table's name, schema-qualified and quoted, for SQL text built outside kysely. */
export function quoteProductTable(name: string): string {
  return `${quoteIdentifier(PRODUCT_SCHEMA)}.${quoteIdentifier(name)}`;
}

/**
 * Every product table of the public schema, parents before children, read from the catalog
 * so tables added by later migrations are covered without a list to keep up to date.
 */
export async function listProductTables(db: Kysely<Database>): Promise<ProductTable[]> {
  const columns = await sql<{ table_name: string; column_name: string }>`
    SELECT c.relname AS table_name, a.attname AS column_name
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid
    WHERE n.nspname = ${PRODUCT_SCHEMA} AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
    ORDER BY c.relname, a.attnum`.execute(db);
  const references = await sql<{ child: string; parent: string }>`
    SELECT child.relname AS child, parent.relname AS parent
    FROM pg_constraint con
    JOIN pg_class child ON child.oid = con.conrelid
    JOIN pg_class parent ON parent.oid = con.confrelid
    JOIN pg_namespace n ON n.oid = child.relnamespace
    WHERE con.contype = 'f' AND n.nspname = ${PRODUCT_SCHEMA}`.execute(db);
  const tables = new Map<string, string[]>();
  for (const row of columns.rows) {
    if (MIGRATION_TABLES.has(row.table_name)) continue;
    tables.set(row.table_name, [...(tables.get(row.table_name) ?? []), row.column_name]);
  }
  return orderByForeignKeys([...tables.keys()], references.rows).map((name) => ({
    name,
    columns: tables.get(name) ?? [],
  }));
}

/** Sorts `tables` so every referenced table comes before the tables referencing it. */
export function orderByForeignKeys(
  tables: readonly string[],
  references: readonly { child: string; parent: string }[],
): string[] {
  const parents = new Map(tables.map((table) => [table, new Set<string>()]));
  for (const { child, parent } of references) {
    if (child !== parent && parents.has(parent)) parents.get(child)?.add(parent);
  }
  const ordered: string[] = [];
  const remaining = [...tables].sort();
  while (remaining.length > 0) {
    const index = remaining.findIndex((table) =>
      [...(parents.get(table) ?? [])].every((parent) => ordered.includes(parent)),
    );
    if (index === -1) {
      throw new Error(`Foreign keys form a cycle among: ${remaining.join(', ')}`);
    }
    ordered.push(...remaining.splice(index, 1));
  }
  return ordered;
}

/** The migrations applied to the database, oldest first (none before the first start). */
export async function readAppliedMigrations(db: Kysely<Database>): Promise<string[]> {
  if (!(await hasTable(db, 'kysely_migration'))) return [];
  const result = await sql<{ name: string }>`
    SELECT name FROM ${productTable('kysely_migration')} ORDER BY name`.execute(db);
  return result.rows.map((row) => row.name);
}

/** Whether the database holds accounts or searches a restore would overwrite. */
export async function hasProductData(db: Kysely<Database>): Promise<boolean> {
  for (const table of ['users', 'searches']) {
    if (!(await hasTable(db, table))) continue;
    const result = await sql<{ is_found: boolean }>`
      SELECT EXISTS (SELECT 1 FROM ${productTable(table)}) AS is_found`.execute(db);
    if (result.rows[0]?.is_found === true) return true;
  }
  return false;
}

/** Counts the rows of one table. */
export async function countRows(db: Kysely<Database>, table: string): Promise<number> {
  const result = await sql<{ count: number }>`
    SELECT count(*)::int AS count FROM ${productTable(table)}`.execute(db);
  return result.rows[0]?.count ?? 0;
}

/** Empties the given tables in one statement, so foreign keys among them do not object. */
export async function truncateTables(
  db: Kysely<Database>,
  tables: readonly string[],
): Promise<void> {
  if (tables.length === 0) return;
  await sql`TRUNCATE ${sql.join(tables.map((table) => productTable(table)))}`.execute(db);
}

/**
 * Drops every table of the product schema, migration bookkeeping included, so migrations
 * can rebuild it at an older level (kysely cannot migrate the first migrations down).
 */
export async function dropProductTables(db: Kysely<Database>): Promise<void> {
  const result = await sql<{ table_name: string }>`
    SELECT c.relname AS table_name FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${PRODUCT_SCHEMA} AND c.relkind IN ('r', 'p') AND NOT c.relispartition`.execute(
    db,
  );
  if (result.rows.length === 0) return;
  const tables = result.rows.map((row) => productTable(row.table_name));
  await sql`DROP TABLE ${sql.join(tables)} CASCADE`.execute(db);
}

/** Moves every serial and identity sequence of the product tables past the largest id in use. */
export async function resetSequences(db: Kysely<Database>): Promise<number> {
  const result = await sql<{ table_name: string; column_name: string; sequence_name: string }>`
    SELECT c.relname AS table_name, a.attname AS column_name,
      pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) AS sequence_name
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_attribute a ON a.attrelid = c.oid
    WHERE n.nspname = ${PRODUCT_SCHEMA} AND c.relkind IN ('r', 'p') AND a.attnum > 0
      AND NOT a.attisdropped
      AND pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) IS NOT NULL`.execute(
    db,
  );
  for (const row of result.rows) {
    await sql`SELECT setval(${row.sequence_name}::regclass,
      coalesce((SELECT max(${sql.ref(row.column_name)}) FROM ${productTable(row.table_name)}), 0) + 1,
      false)`.execute(db);
  }
  return result.rows.length;
}

/** A product table's name, schema-qualified so a different search_path changes nothing. */
function productTable(name: string): ReturnType<typeof sql.table> {
  return sql.table(`${PRODUCT_SCHEMA}.${name}`);
}

async function hasTable(db: Kysely<Database>, table: string): Promise<boolean> {
  const result = await sql<{ is_found: boolean }>`
    SELECT to_regclass(${quoteProductTable(table)}) IS NOT NULL AS is_found`.execute(db);
  return result.rows[0]?.is_found === true;
}
