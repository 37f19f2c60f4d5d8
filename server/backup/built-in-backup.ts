import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql, type Transaction } from 'kysely';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { QUEUE_SCHEMA } from '#server/db/queue-schema.ts';
import type { Database } from '#server/db/schema.ts';
import {
  countRows,
  listProductTables,
  quoteIdentifier,
  quoteProductTable,
  readAppliedMigrations,
} from './product-tables.ts';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  FILE_END,
  formatCopyStatement,
  formatHeaderLine,
  SECTION_END,
  type BackupHeader,
} from './format.ts';
import { openSingleConnection } from './single-connection.ts';

/** What a backup leaves out, and why; printed by the CLI and kept in the header. */
export const LEFT_OUT = [
  `the pg-boss job queue (schema ${QUEUE_SCHEMA}): its jobs are transient and planned again by the watcher`,
  'the migration lock table',
];

/**
 * Writes the product tables of `connectionString` to `file` in the built-in format: a gzip
 * stream of a JSON header line, then each table's `COPY ... TO STDOUT` text. All of it is
 * read in one REPEATABLE READ READ ONLY transaction, so it is one consistent moment even
 * while the stack writes. The file appears only once complete (written aside, then renamed)
 * and is readable by its owner only: it holds password hashes and signing keys.
 */
export async function writeBuiltInBackup(
  connectionString: string,
  file: string,
  productVersion: string,
): Promise<{ header: BackupHeader; bytes: number }> {
  const connection = await openSingleConnection(connectionString);
  const partial = `${file}.partial-${process.pid}`;
  try {
    const header = await connection.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const header = await readHeader(trx, productVersion);
        await pipeline(
          streamBackup(connection.client, header),
          createGzip(),
          createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
        );
        return header;
      });
    await rename(partial, file);
    return { header, bytes: (await stat(file)).size };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await connection.close();
  }
}

/** The header of a backup taken now, in the transaction whose snapshot it describes. */
async function readHeader(
  trx: Transaction<Database>,
  productVersion: string,
): Promise<BackupHeader> {
  const tables = await listProductTables(trx);
  const version = await sql<{ server_version: string }>`SHOW server_version`.execute(trx);
  const counted = [];
  for (const table of tables) counted.push({ ...table, rows: await countRows(trx, table.name) });
  return {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    productVersion,
    postgresVersion: version.rows[0]?.server_version ?? 'unknown',
    createdAt: new Date().toISOString(),
    migrations: await readAppliedMigrations(trx),
    tables: counted,
    leftOut: LEFT_OUT,
  };
}

/** The uncompressed backup, one COPY chunk at a time (the pipeline's backpressure paces it). */
async function* streamBackup(client: pg.Client, header: BackupHeader): AsyncGenerator<Buffer> {
  yield Buffer.from(formatHeaderLine(header));
  for (const table of header.tables) {
    yield Buffer.from(`${formatCopyStatement(table)};\n`);
    const columns = table.columns.map(quoteIdentifier).join(', ');
    const copy = client.query(
      copyTo(`COPY ${quoteProductTable(table.name)} (${columns}) TO STDOUT`),
    );
    for await (const chunk of copy as AsyncIterable<Buffer>) yield chunk;
    if (copy.rowCount !== table.rows) {
      throw new Error(
        `table ${table.name} gave ${copy.rowCount} rows where its count was ${table.rows}`,
      );
    }
    yield Buffer.from(SECTION_END);
  }
  yield Buffer.from(FILE_END);
}
