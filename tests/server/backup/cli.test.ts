import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDatabase, restoreDatabase } from '#server/backup/index.ts';
import { findOrCreateUserByIdentity } from '#server/db/repositories/users-repository.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { fingerprintTables, seedProductData } from './backup-fixtures.ts';

const ROOT_DIR = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs `shelfwatch <args>` through the real bin script, as its own process. */
async function runCli(
  args: string[],
  environment: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['bin/shelfwatch.js', ...args], {
    cwd: ROOT_DIR,
    env: { ...process.env, DATABASE_URL: '', ...environment },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

describe('shelfwatch db backup and db restore', () => {
  let folder: string;
  let source: TestDatabase;
  const databases: TestDatabase[] = [];

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-backup-cli-'));
    // Embedded PostgreSQL runs as an unprivileged user when started by root: let it in.
    await chmod(folder, 0o755);
    source = await createTestDatabase();
    databases.push(source);
    await seedProductData(source.db);
  });
  afterAll(async () => {
    for (const database of databases) await database.drop();
    await rm(folder, { recursive: true, force: true });
  });

  it('backs a DATABASE_URL up and restores it into another, refusing one with accounts unless --force', async () => {
    const file = path.join(folder, 'url.backup');
    const backup = await runCli(['db', 'backup', file], { DATABASE_URL: source.url });
    expect(backup.stderr).not.toContain(new URL(source.url).password);
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(
      /^Wrote .*url\.backup \((built-in|pg_dump) format\): \d+ tables, [\d,]+ rows, [\d.]+ \w+ in [\d.]+ s\.$/m,
    );
    expect(backup.stdout).toMatch(/^ {2}users +2$/m);
    expect(backup.stdout).toContain('Left out: the pg-boss job queue (schema pgboss)');

    const target = await createTestDatabase();
    databases.push(target);
    await findOrCreateUserByIdentity(target.db, { issuer: 'x', subject: 'kept', email: 'k@x.com' });
    const refused = await runCli(['db', 'restore', file], { DATABASE_URL: target.url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already holds accounts or searches');
    expect(refused.stderr).toContain('--force');

    const restored = await runCli(['db', 'restore', file, '--force'], { DATABASE_URL: target.url });
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(
      /^Restored .*url\.backup \((built-in|pg_dump) format\): \d+ tables, [\d,]+ rows in [\d.]+ s\.$/m,
    );
    expect(restored.stderr).toContain('Restart any Shelfwatch running on this database');
    expect(await fingerprintTables(target.db)).toEqual(await fingerprintTables(source.db));
  });

  it('restores into and backs up the embedded default, starting its cluster for the command', async () => {
    const file = path.join(folder, 'for-embedded.backup');
    // Built-in, so the file suits the embedded PostgreSQL whatever server TEST_DATABASE_URL names.
    await backupDatabase(source.url, file, { method: 'built-in' });
    const environment = {
      SHELFWATCH_DATA_DIR: path.join(folder, 'data'),
      EMBEDDED_PG_PORT: String(await getFreePort()),
    };
    const restored = await runCli(['db', 'restore', file], environment);
    expect(restored.stderr).toContain('Started embedded PostgreSQL on port');
    expect(restored.code).toBe(0);

    const again = path.join(folder, 'from-embedded.backup');
    const backup = await runCli(['db', 'backup', again], environment);
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^ {2}searches +2$/m);

    const check = await createTestDatabase({ isMigrated: false });
    databases.push(check);
    await restoreDatabase(check.url, again);
    expect(await fingerprintTables(check.db)).toEqual(await fingerprintTables(source.db));
  }, 120_000);

  it('says why a file cannot be restored, with a failing exit code', async () => {
    const missing = await runCli(['db', 'restore', path.join(folder, 'missing.backup')], {
      DATABASE_URL: source.url,
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no such file');
  });
});
