import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPgTools, parseToolMajor, restoreDatabase } from '#server/backup/index.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

describe('choosing pg_dump and pg_restore', () => {
  let folder: string;

  /** A bin folder whose pg_dump and pg_restore print the given versions, as the real ones do. */
  async function createBinDir(
    name: string,
    dumpVersion: string,
    restoreVersion = dumpVersion,
  ): Promise<string> {
    const dir = path.join(folder, name);
    await mkdir(dir);
    for (const [tool, version] of [
      ['pg_dump', dumpVersion],
      ['pg_restore', restoreVersion],
    ] as const) {
      const script = path.join(dir, tool);
      await writeFile(script, `#!/bin/sh\necho "${tool} (PostgreSQL) ${version}"\n`);
      await chmod(script, 0o755);
    }
    return dir;
  }

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-pg-tools-'));
  });
  afterAll(async () => rm(folder, { recursive: true, force: true }));

  it('reads the major version of a --version line', () => {
    expect(parseToolMajor('pg_dump (PostgreSQL) 18.4')).toBe(18);
    expect(parseToolMajor('pg_dump (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)')).toBe(15);
    expect(parseToolMajor('pg_dump (PostgreSQL) 19devel')).toBe(19);
    expect(parseToolMajor('pg_dump (PostgreSQL) 9.6.24')).toBe(0);
    expect(parseToolMajor('something else')).toBeUndefined();
  });

  it('prefers PG_BIN_DIR, then the embedded package, then PATH, each only if recent enough', async () => {
    const explicit = await createBinDir('explicit', '18.1');
    const embedded = await createBinDir('embedded', '18.4');
    const onPath = await createBinDir('on-path', '19.0');
    const old = await createBinDir('old', '15.18 (Debian 15.18-0+deb12u1)');
    const notes: string[] = [];
    const note = (line: string): void => void notes.push(line);
    const search = (env: NodeJS.ProcessEnv, embeddedBinDir?: string) => ({ env, embeddedBinDir });

    expect(
      await findPgTools(18, search({ PG_BIN_DIR: explicit, PATH: onPath }, embedded), note),
    ).toMatchObject({
      binDir: explicit,
      major: 18,
    });
    expect(await findPgTools(18, search({ PATH: onPath }, embedded), note)).toMatchObject({
      binDir: embedded,
    });
    expect(
      await findPgTools(18, search({ PATH: `${old}${path.delimiter}${onPath}` }), note),
    ).toMatchObject({
      binDir: onPath,
      pgDump: path.join(onPath, 'pg_dump'),
      pgRestore: path.join(onPath, 'pg_restore'),
    });
    expect(notes).toEqual([
      `Skipped pg_dump/pg_restore in ${old}: version 15, the server is PostgreSQL 18`,
    ]);
    expect(
      await findPgTools(19, search({ PG_BIN_DIR: explicit, PATH: old }, embedded), note),
    ).toBeUndefined();
  });

  it('passes over a folder whose pg_restore is older than the server, or that lacks one', async () => {
    const mixed = await createBinDir('mixed', '18.4', '17.2');
    const dumpOnly = path.join(folder, 'dump-only');
    await mkdir(dumpOnly);
    await writeFile(
      path.join(dumpOnly, 'pg_dump'),
      '#!/bin/sh\necho "pg_dump (PostgreSQL) 18.4"\n',
      { mode: 0o755 },
    );
    const newer = await createBinDir('newer', '18.0');
    const tools = await findPgTools(
      18,
      {
        env: { PG_BIN_DIR: mixed, PATH: `${dumpOnly}${path.delimiter}${newer}` },
        embeddedBinDir: undefined,
      },
      () => undefined,
    );
    expect(tools?.binDir).toBe(newer);
  });

  describe('with a database', () => {
    let testDb: TestDatabase;
    beforeAll(async () => {
      testDb = await createTestDatabase();
    });
    afterAll(async () => testDb.drop());

    it('refuses a pg_dump file when no recent enough pg_restore is found, naming PG_BIN_DIR', async () => {
      const file = path.join(folder, 'dump.backup');
      await writeFile(file, 'PGDMP\u0001\u000e\u0000');
      const old = await createBinDir('old-only', '12.0');
      await expect(
        restoreDatabase(testDb.url, file, {
          search: { env: { PATH: old }, embeddedBinDir: undefined },
        }),
      ).rejects.toThrow(/written by pg_dump: restoring it needs pg_restore .*PG_BIN_DIR/);
    });

    it('refuses a file that is neither format', async () => {
      const file = path.join(folder, 'notes.txt');
      await writeFile(file, 'just some notes\n');
      await expect(restoreDatabase(testDb.url, file)).rejects.toThrow(/is not a Shelfwatch backup/);
    });
  });
});
