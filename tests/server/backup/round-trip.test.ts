import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backupDatabase,
  BackupFileError,
  restoreDatabase,
  RestoreRefusedError,
} from '#server/backup/index.ts';
import { KNOWN_MIGRATIONS, migrateUpTo } from '#server/db/migrate.ts';
import { insertAvailabilityEvents } from '#server/db/repositories/availability-repository.ts';
import { findOrCreateUserByIdentity } from '#server/db/repositories/users-repository.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { fingerprintTables, listFilledTables, seedProductData } from './backup-fixtures.ts';

const BUILT_IN = { method: 'built-in' } as const;

/** The line index of a table's first row in a decompressed backup. */
function findFirstRow(lines: string[], table: string): number {
  return lines.findIndex((_, index) => lines[index - 1]?.startsWith(`COPY "public"."${table}"`));
}

describe('db backup and restore (built-in format)', () => {
  let folder: string;
  let source: TestDatabase;
  let file: string;
  const databases: TestDatabase[] = [];

  /** A fresh database, dropped after the file's tests. */
  async function createTarget(options: { isMigrated?: boolean } = {}): Promise<TestDatabase> {
    const target = await createTestDatabase(options);
    databases.push(target);
    return target;
  }

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-backup-'));
    source = await createTarget();
    await seedProductData(source.db);
    file = path.join(folder, 'shelfwatch.backup');
    await backupDatabase(source.url, file, BUILT_IN);
  });
  afterAll(async () => {
    for (const database of databases) await database.drop();
    await rm(folder, { recursive: true, force: true });
  });

  it('restores every product table row for row into a fresh database', async () => {
    const target = await createTarget({ isMigrated: false });
    const summary = await restoreDatabase(target.url, file, BUILT_IN);
    const expected = await fingerprintTables(source.db);
    expect(listFilledTables(expected)).toEqual(
      expect.arrayContaining([
        'alert_outbox',
        'app_secrets',
        'availability_events',
        'availability_snapshots',
        'push_subscriptions',
        'search_preferred_models',
        'searches',
        'stores',
        'upstream_requests',
        'users',
      ]),
    );
    expect(await fingerprintTables(target.db)).toEqual(expected);
    expect(summary.tables.find((table) => table.name === 'users')?.rows).toBe(2);
    expect(summary.migratedAfter).toEqual([]);
  });

  it('writes a file only its owner can read, with the header and tables in foreign-key order', async () => {
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const [headerLine] = gunzipSync(await readFile(file))
      .toString('utf8')
      .split('\n', 1);
    const header = JSON.parse(headerLine ?? '') as {
      migrations: string[];
      tables: { name: string; rows: number }[];
      leftOut: string[];
      postgresVersion: string;
    };
    expect(header.migrations).toEqual(KNOWN_MIGRATIONS);
    const names = header.tables.map((table) => table.name);
    expect(names).not.toContain('kysely_migration_lock');
    expect(names.indexOf('users')).toBeLessThan(names.indexOf('searches'));
    expect(names.indexOf('searches')).toBeLessThan(names.indexOf('search_preferred_models'));
    expect(names.indexOf('stores')).toBeLessThan(names.indexOf('availability_snapshots'));
    expect(header.leftOut.join(' ')).toContain('pgboss');
    expect(header.postgresVersion).toMatch(/^\d+/);
  });

  it('moves sequences past the restored ids, so new rows can be added', async () => {
    const target = await createTarget();
    await restoreDatabase(target.url, file, BUILT_IN);
    const { max } = await target.db
      .selectFrom('availability_events')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirstOrThrow();
    const [added] = await insertAvailabilityEvents(target.db, [
      {
        store_id: 'R095',
        part_number: 'X',
        from_status: null,
        to_status: 'available',
        pickup_quote: null,
        observed_at: new Date(),
      },
    ]);
    expect(Number(added?.id)).toBe(Number(max) + 1);
  });

  it('refuses a database holding accounts without --force and leaves it as it was', async () => {
    const target = await createTarget();
    await findOrCreateUserByIdentity(target.db, { issuer: 'x', subject: 'kept', email: 'k@x.com' });
    const before = await fingerprintTables(target.db);
    await expect(restoreDatabase(target.url, file, BUILT_IN)).rejects.toThrow(RestoreRefusedError);
    expect(await fingerprintTables(target.db)).toEqual(before);

    await restoreDatabase(target.url, file, { ...BUILT_IN, isForced: true });
    expect(await fingerprintTables(target.db)).toEqual(await fingerprintTables(source.db));
  });

  it('refuses a truncated or corrupt file and leaves the target unchanged', async () => {
    const target = await createTarget();
    await seedProductData(target.db, 'other');
    const before = await fingerprintTables(target.db);
    const bytes = await readFile(file);
    const truncated = path.join(folder, 'truncated.backup');
    await writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
    await expect(
      restoreDatabase(target.url, truncated, { ...BUILT_IN, isForced: true }),
    ).rejects.toThrow(/truncated or corrupt/);

    const corrupt = path.join(folder, 'corrupt.backup');
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)] ^= 0xff;
    await writeFile(corrupt, flipped);
    await expect(
      restoreDatabase(target.url, corrupt, { ...BUILT_IN, isForced: true }),
    ).rejects.toThrow(BackupFileError);
    expect(await fingerprintTables(target.db)).toEqual(before);
  });

  it('refuses a file whose rows disagree with its header, before changing anything', async () => {
    const target = await createTarget();
    const lines = gunzipSync(await readFile(file))
      .toString('utf8')
      .split('\n');
    lines.splice(findFirstRow(lines, 'users'), 1);
    const edited = path.join(folder, 'edited.backup');
    await writeFile(edited, gzipSync(lines.join('\n')));
    await expect(restoreDatabase(target.url, edited, BUILT_IN)).rejects.toThrow(
      /table users holds 1 rows where the header says 2/,
    );
    expect(listFilledTables(await fingerprintTables(target.db))).toEqual([]);
  });

  it('rolls everything back when PostgreSQL rejects a row midway', async () => {
    const target = await createTarget();
    await seedProductData(target.db, 'other');
    const before = await fingerprintTables(target.db);
    const lines = gunzipSync(await readFile(file))
      .toString('utf8')
      .split('\n');
    const row = findFirstRow(lines, 'searches');
    lines[row] = lines[row].replace(/^[^\t]+/, 'not-a-uuid');
    const broken = path.join(folder, 'broken-row.backup');
    await writeFile(broken, gzipSync(lines.join('\n')));
    await expect(
      restoreDatabase(target.url, broken, { ...BUILT_IN, isForced: true }),
    ).rejects.toThrow(/invalid input syntax for type uuid/);
    expect(await fingerprintTables(target.db)).toEqual(before);
  });

  it('refuses a file from a newer schema with a clear message', async () => {
    const target = await createTarget();
    const text = gunzipSync(await readFile(file)).toString('utf8');
    const newline = text.indexOf('\n');
    const header = JSON.parse(text.slice(0, newline)) as { migrations: string[] };
    header.migrations.push('9999-from-the-future');
    const newer = path.join(folder, 'newer.backup');
    await writeFile(newer, gzipSync(JSON.stringify(header) + text.slice(newline)));
    await expect(restoreDatabase(target.url, newer, BUILT_IN)).rejects.toThrow(
      /comes from a newer Shelfwatch.*9999-from-the-future, which this version does not know/,
    );
  });

  it('restores an older backup into a database at the latest level, then migrates it', async () => {
    const old = await createTarget({ isMigrated: false });
    await migrateUpTo(old.db, '0003-watch-workers');
    await sql`INSERT INTO users (issuer, subject, email) VALUES ('x', 'old', 'old@example.com')`.execute(
      old.db,
    );
    const oldFile = path.join(folder, 'old.backup');
    await backupDatabase(old.url, oldFile, BUILT_IN);

    const target = await createTarget();
    const notes: string[] = [];
    const summary = await restoreDatabase(target.url, oldFile, {
      ...BUILT_IN,
      note: (line) => notes.push(line),
    });
    expect(notes.join('\n')).toContain('rebuilding the product tables');
    expect(summary.migratedAfter).toEqual(KNOWN_MIGRATIONS.slice(3));
    const users = await target.db.selectFrom('users').select(['email', 'plan']).execute();
    expect(users).toEqual([{ email: 'old@example.com', plan: 'good' }]);
  });
});
