import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { finished, pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { Transaction } from 'kysely';
import type pg from 'pg';
import { from as copyFrom, type CopyStreamQuery } from 'pg-copy-streams';
import { migrateToLatest, migrateUpTo } from '#server/db/migrate.ts';
import type { Database } from '#server/db/schema.ts';
import {
  countRows,
  dropProductTables,
  hasProductData,
  listProductTables,
  readAppliedMigrations,
  resetSequences,
  truncateTables,
} from './product-tables.ts';
import { checkMigrationsKnown, RestoreRefusedError } from './checks.ts';
import {
  BackupFileError,
  formatCopyStatement,
  readBackupParts,
  type BackupHeader,
  type BackupPart,
} from './format.ts';
import { openSingleConnection } from './single-connection.ts';

/** What a restore did: the file's header, the rows now in each table, migrations applied after. */
export type BuiltInRestoreResult = {
  header: BackupHeader;
  tables: { name: string; rows: number }[];
  migratedAfter: string[];
};

/**
 * Restores a built-in backup into `connectionString`, all or nothing. The whole file is read
 * once first (a truncated or corrupt file is refused before anything changes); then, in one
 * transaction: the no-data check, the schema brought to the file's migration level (rebuilt
 * when the target is at a later or different level), the product tables emptied and streamed
 * back with COPY FROM STDIN, sequences moved past the largest ids, later migrations applied.
 */
export async function restoreBuiltInBackup(
  connectionString: string,
  file: string,
  options: { isForced: boolean; note: (line: string) => void },
): Promise<BuiltInRestoreResult> {
  const header = await verifyBackupFile(file);
  const connection = await openSingleConnection(connectionString);
  try {
    return await connection.db.transaction().execute(async (trx) => {
      if (!options.isForced && (await hasProductData(trx))) throw new RestoreRefusedError();
      await prepareSchema(trx, header, options.note);
      const tables = await listProductTables(trx);
      checkTablesFit(header, tables);
      await truncateTables(
        trx,
        tables.map((table) => table.name),
      );
      await copyIntoTables(connection.client, file);
      await resetSequences(trx);
      const migratedAfter = await migrateToLatest(trx);
      const counted = [];
      for (const table of header.tables) {
        counted.push({ name: table.name, rows: await countRows(trx, table.name) });
      }
      return { header, tables: counted, migratedAfter };
    });
  } finally {
    await connection.close();
  }
}

/** Reads the whole file, checking its structure and gzip checksum; returns its header. */
export async function verifyBackupFile(file: string): Promise<BackupHeader> {
  let header: BackupHeader | undefined;
  await readBackupFile(file, async (part) => {
    if (part.kind !== 'header') return;
    checkMigrationsKnown(part.header);
    header = part.header;
  });
  if (header === undefined) throw new BackupFileError(`${file} holds no header`);
  return header;
}

/** Streams the file's parts to `onPart`, turning gzip and format errors into one clear message. */
async function readBackupFile(
  file: string,
  onPart: (part: BackupPart) => Promise<void>,
): Promise<void> {
  try {
    await pipeline(
      createReadStream(file),
      createGunzip(),
      async (source: AsyncIterable<Buffer>) => {
        for await (const part of readBackupParts(source)) await onPart(part);
      },
    );
  } catch (error) {
    if (error instanceof BackupFileError) {
      throw new BackupFileError(`${file} is not a usable Shelfwatch backup: ${error.message}`);
    }
    const code = (error as { code?: unknown }).code;
    if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR') {
      throw new BackupFileError(
        `${file} is truncated or corrupt (${(error as Error).message}); nothing was restored`,
      );
    }
    throw error;
  }
}

/** Brings the target's schema to the file's migration level, rebuilding it if it is past that. */
async function prepareSchema(
  trx: Transaction<Database>,
  header: BackupHeader,
  note: (line: string) => void,
): Promise<void> {
  const applied = await readAppliedMigrations(trx);
  const isOnTheWay =
    applied.length <= header.migrations.length &&
    applied.every((name, index) => header.migrations[index] === name);
  if (!isOnTheWay) {
    note(
      `The database is at migration ${applied.at(-1) ?? '(none)'}, the backup at ${header.migrations.at(-1) ?? '(none)'}: ` +
        "rebuilding the product tables at the backup's level, then migrating",
    );
    await dropProductTables(trx);
  }
  const level = header.migrations.at(-1);
  if (level !== undefined) await migrateUpTo(trx, level);
}

/** Every table and column of the file must exist at its migration level. */
function checkTablesFit(header: BackupHeader, tables: { name: string; columns: string[] }[]): void {
  for (const table of header.tables) {
    const target = tables.find((candidate) => candidate.name === table.name);
    const missing = table.columns.filter((column) => !target?.columns.includes(column));
    if (target === undefined || missing.length > 0) {
      throw new BackupFileError(
        `table ${table.name} of the backup does not fit the schema at migration ${header.migrations.at(-1) ?? '(none)'}` +
          (target === undefined ? '' : ` (no column ${missing.join(', ')})`),
      );
    }
  }
}

/** Streams each table's rows into COPY FROM STDIN, waiting whenever PostgreSQL is behind. */
async function copyIntoTables(client: pg.Client, file: string): Promise<void> {
  const open: { copy?: { stream: CopyStreamQuery; done: Promise<void> } } = {};
  try {
    await readBackupFile(file, async (part) => {
      if (part.kind === 'rows') {
        if (open.copy === undefined) {
          const stream = client.query(copyFrom(formatCopyStatement(part.table)));
          const done = finished(stream);
          // Errors surface where `done` is awaited; this only keeps them from going unhandled.
          done.catch(() => undefined);
          open.copy = { stream, done };
        }
        if (!open.copy.stream.write(part.data)) {
          await Promise.race([once(open.copy.stream, 'drain'), open.copy.done]);
        }
      } else if (part.kind === 'table-end' && open.copy !== undefined) {
        const { stream, done } = open.copy;
        stream.end();
        await done;
        open.copy = undefined;
        if (stream.rowCount !== part.rows) {
          throw new Error(`table ${part.table.name} took ${stream.rowCount} rows of ${part.rows}`);
        }
      }
    });
  } catch (error) {
    // A COPY left open would keep the connection from ever reaching the ROLLBACK.
    open.copy?.stream.destroy(error instanceof Error ? error : new Error(String(error)));
    await open.copy?.done.catch(() => undefined);
    throw error;
  }
}
