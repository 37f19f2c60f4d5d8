import { describe, expect, it } from 'vitest';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  FILE_END,
  formatCopyStatement,
  formatHeaderLine,
  readBackupParts,
  SECTION_END,
  type BackupHeader,
} from '#server/backup/format.ts';

const HEADER: BackupHeader = {
  format: BACKUP_FORMAT,
  formatVersion: BACKUP_FORMAT_VERSION,
  productVersion: '0.1.0',
  postgresVersion: '18.4',
  createdAt: '2025-03-01T10:00:00.000Z',
  migrations: ['0001-initial'],
  tables: [
    { name: 'users', columns: ['id', 'email'], rows: 2 },
    { name: 'app_secrets', columns: ['name'], rows: 0 },
    { name: 'searches', columns: ['id'], rows: 1 },
  ],
  leftOut: [],
};

const USER_ROWS = 'u1\ta@example.com\nu2\tback\\\\slash \\\\. and \\n newline\n';
const BODY =
  formatHeaderLine(HEADER) +
  `${formatCopyStatement(HEADER.tables[0])};\n${USER_ROWS}${SECTION_END}` +
  `${formatCopyStatement(HEADER.tables[1])};\n${SECTION_END}` +
  `${formatCopyStatement(HEADER.tables[2])};\ns1\n${SECTION_END}` +
  FILE_END;

/** Feeds `text` to the reader in chunks of `size` bytes; returns rows by table and the parts' kinds. */
async function readInChunks(
  text: string,
  size: number,
): Promise<{ rows: Record<string, string>; ends: string[] }> {
  const bytes = Buffer.from(text);
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let start = 0; start < bytes.length; start += size)
      yield bytes.subarray(start, start + size);
  }
  const rows: Record<string, string> = {};
  const ends: string[] = [];
  for await (const part of readBackupParts(chunks())) {
    if (part.kind === 'rows')
      rows[part.table.name] = (rows[part.table.name] ?? '') + part.data.toString();
    if (part.kind === 'table-end') ends.push(`${part.table.name}:${part.rows}`);
  }
  return { rows, ends };
}

describe('readBackupParts', () => {
  it('hands back each table’s rows exactly, however the stream is cut into chunks', async () => {
    for (const size of [1, 2, 3, 7, 64, BODY.length]) {
      const { rows, ends } = await readInChunks(BODY, size);
      expect(rows).toEqual({ users: USER_ROWS, searches: 's1\n' });
      expect(ends).toEqual(['users:2', 'app_secrets:0', 'searches:1']);
    }
  });

  it('names where a file cut short ends', async () => {
    const cut = BODY.slice(0, BODY.indexOf('u2'));
    await expect(readInChunks(cut, 5)).rejects.toThrow(/ends early \(inside table users\)/);
    await expect(readInChunks(BODY.slice(0, -3), 5)).rejects.toThrow(/before its end line/);
  });

  it('refuses text that is not a backup, a newer format, and data after the end', async () => {
    await expect(readInChunks('hello\n', 4)).rejects.toThrow(
      /does not start with a Shelfwatch backup header/,
    );
    const newer = formatHeaderLine({ ...HEADER, formatVersion: BACKUP_FORMAT_VERSION + 1 });
    await expect(readInChunks(newer, 4)).rejects.toThrow(/backup format 2 by a newer Shelfwatch/);
    await expect(readInChunks(`${BODY}more\n`, 9)).rejects.toThrow(/data after its end/);
  });
});
