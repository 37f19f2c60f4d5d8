import { z } from 'zod';
import { quoteIdentifier, quoteProductTable } from './product-tables.ts';

/** The `format` field of every built-in backup header. */
export const BACKUP_FORMAT = 'shelfwatch-backup';

/** The newest header and body layout this program writes and reads. */
export const BACKUP_FORMAT_VERSION = 1;

/** The last line of a complete backup: a file without it was cut short. */
const END_LINE = '-- end of Shelfwatch backup';

/** COPY's end-of-data line; a row can never be this line (a backslash is escaped as `\\`). */
const END_OF_DATA = [0x5c, 0x2e];

/** A header line longer than this is not a header: the file is something else. */
const MAX_HEADER_BYTES = 1024 * 1024;

const tableSchema = z.object({
  name: z.string().min(1),
  columns: z.array(z.string().min(1)).min(1),
  rows: z.number().int().nonnegative(),
});

const headerSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  formatVersion: z.number().int().positive(),
  productVersion: z.string(),
  postgresVersion: z.string(),
  createdAt: z.string(),
  migrations: z.array(z.string()),
  tables: z.array(tableSchema),
  leftOut: z.array(z.string()),
});

/** The first line of a built-in backup: what it holds, in the order it holds it. */
export type BackupHeader = z.infer<typeof headerSchema>;

/** One table section of a backup, as the header lists it. */
export type BackupTable = z.infer<typeof tableSchema>;

/** A backup file that cannot be restored as it is: truncated, corrupt or not a backup. */
export class BackupFileError extends Error {}

/** A piece of a backup read back: the header, rows of a table (COPY text), or a table's end. */
export type BackupPart =
  | { kind: 'header'; header: BackupHeader }
  | { kind: 'rows'; table: BackupTable; data: Buffer }
  | { kind: 'table-end'; table: BackupTable; rows: number };

/** The header as the first line of the file. */
export function formatHeaderLine(header: BackupHeader): string {
  return `${JSON.stringify(header)}\n`;
}

/** The COPY statement a table section starts with, and with which it is restored. */
export function formatCopyStatement(table: Pick<BackupTable, 'name' | 'columns'>): string {
  return `COPY ${quoteProductTable(table.name)} (${table.columns.map(quoteIdentifier).join(', ')}) FROM stdin`;
}

/** The lines that close a table section and, after the last table, the file. */
export const SECTION_END = '\\.\n';
/** The file's closing line. */
export const FILE_END = `${END_LINE}\n`;

/** Parses and checks a header line; `undefined` fields or a foreign format throw. */
function parseHeader(line: string): BackupHeader {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new BackupFileError('it does not start with a Shelfwatch backup header');
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== BACKUP_FORMAT) {
    throw new BackupFileError('it does not start with a Shelfwatch backup header');
  }
  const version = (value as { formatVersion?: unknown }).formatVersion;
  if (typeof version === 'number' && version > BACKUP_FORMAT_VERSION) {
    throw new BackupFileError(
      `it was written in backup format ${version} by a newer Shelfwatch; this one reads format ${BACKUP_FORMAT_VERSION}`,
    );
  }
  const parsed = headerSchema.safeParse(value);
  if (!parsed.success) throw new BackupFileError('its header is malformed');
  return parsed.data;
}

/**
 * Reads a decompressed backup as it streams: the header, then each table's COPY rows in
 * slices of the chunks read (no table is held in memory), checking every section's start,
 * end and row count against the header, and that the file ends where it should.
 */
export async function* readBackupParts(source: AsyncIterable<Buffer>): AsyncGenerator<BackupPart> {
  let header: BackupHeader | undefined;
  let tableIndex = 0;
  let state: 'header' | 'copy' | 'rows' | 'end' | 'done' = 'header';
  let rows = 0;
  let pending: Buffer = Buffer.alloc(0);
  const currentTable = (): BackupTable => {
    const table = header?.tables[tableIndex];
    if (table === undefined) throw new BackupFileError('its sections do not match its header');
    return table;
  };
  const afterTable = (): 'copy' | 'end' =>
    tableIndex < (header?.tables.length ?? 0) ? 'copy' : 'end';

  for await (const chunk of source) {
    const buffer: Buffer = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let position = 0;
    let runStart = 0;
    for (let newline = buffer.indexOf(10); newline !== -1; newline = buffer.indexOf(10, position)) {
      if (state === 'rows') {
        const isEnd =
          newline - position === 2 &&
          buffer[position] === END_OF_DATA[0] &&
          buffer[position + 1] === END_OF_DATA[1];
        if (!isEnd) {
          rows += 1;
          position = newline + 1;
          continue;
        }
        const table = currentTable();
        if (position > runStart)
          yield { kind: 'rows', table, data: buffer.subarray(runStart, position) };
        if (rows !== table.rows) {
          throw new BackupFileError(
            `table ${table.name} holds ${rows} rows where the header says ${table.rows}`,
          );
        }
        yield { kind: 'table-end', table, rows };
        tableIndex += 1;
        state = afterTable();
        position = newline + 1;
        continue;
      }
      const line = buffer.toString('utf8', position, newline);
      position = newline + 1;
      if (state === 'header') {
        header = parseHeader(line);
        yield { kind: 'header', header };
        state = afterTable();
      } else if (state === 'copy') {
        const table = currentTable();
        if (line !== `${formatCopyStatement(table)};`) {
          throw new BackupFileError(
            `the section of table ${table.name} does not start as it should`,
          );
        }
        state = 'rows';
        rows = 0;
        runStart = position;
      } else if (state === 'end') {
        if (line !== END_LINE)
          throw new BackupFileError('it holds more sections than its header lists');
        state = 'done';
      } else {
        throw new BackupFileError('it holds data after its end');
      }
    }
    if (state === 'rows' && position > runStart) {
      yield { kind: 'rows', table: currentTable(), data: buffer.subarray(runStart, position) };
    }
    pending = buffer.subarray(position);
    if (state !== 'rows' && pending.length > MAX_HEADER_BYTES) {
      throw new BackupFileError('it does not start with a Shelfwatch backup header');
    }
  }
  if (state === 'done' && pending.length > 0) {
    throw new BackupFileError('it holds data after its end');
  }
  if (state !== 'done') {
    const where =
      state === 'header'
        ? 'before its header ended'
        : state === 'end'
          ? 'before its end line'
          : `inside table ${currentTable().name}`;
    throw new BackupFileError(`it ends early (${where}): the file is truncated`);
  }
}
