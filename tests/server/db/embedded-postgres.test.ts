import { execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig } from '#server/config/app-config.ts';
import { findRunningPostmaster, parsePostmasterPid } from '#server/db/embedded-postgres.ts';
import { openDatabase, type OpenedDatabase } from '#server/db/open-database.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';

const run = promisify(execFile);

/** The pid of a process that has exited, as a crashed postmaster leaves in its file. */
async function findDeadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('the embedded cluster of a data folder', () => {
  let dataDir: string;
  let config: AppConfig;
  let owner: OpenedDatabase | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-embedded-'));
    // Embedded PostgreSQL runs as an unprivileged user when started by root: let it in.
    await chmod(dataDir, 0o755);
    config = loadConfig({
      SHELFWATCH_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await getFreePort()),
    });
  });
  afterAll(async () => {
    await owner?.db.destroy();
    await owner?.cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reads the pid and port out of postmaster.pid', () => {
    const text =
      '4242\n/data/postgres\n1795420000\n5433\n\n127.0.0.1\n  5433001     32768\nready   \n';
    expect(parsePostmasterPid(text)).toEqual({ pid: 4242, port: 5433 });
    expect(parsePostmasterPid('')).toBeUndefined();
  });

  it('takes a postmaster.pid whose process is gone for no running cluster, and starts anyway', async () => {
    const directory = path.join(dataDir, 'postgres');
    await openDatabase(config, { isSharing: false }).then(async (opened) => {
      await opened.db.destroy();
      await opened.cluster?.stop();
    });
    await writeFile(
      path.join(directory, 'postmaster.pid'),
      `${await findDeadPid()}\n${directory}\n1795420000\n${config.embeddedPgPort}\n\n127.0.0.1\n`,
    );
    expect(await findRunningPostmaster(directory)).toBeUndefined();

    owner = await openDatabase(config, { isSharing: false });
    expect(owner.source).toMatchObject({ kind: 'embedded', isShared: false });
    expect(await findRunningPostmaster(directory)).toMatchObject({ port: config.embeddedPgPort });
  });

  it('runs its postmaster in a process group of its own, so Ctrl-C stays quiet', async () => {
    // A terminal's Ctrl-C signals its whole foreground group: a postmaster in ours would shut
    // down under the server's live connections before the server stopped using them.
    const running = await findRunningPostmaster(path.join(dataDir, 'postgres'));
    expect(running).toBeDefined();
    const readGroup = async (pid: number) =>
      Number((await run('ps', ['-o', 'pgid=', '-p', String(pid)])).stdout.trim());
    const postmasterGroup = await readGroup(running!.pid);
    expect(postmasterGroup).toBe(running!.pid);
    expect(postmasterGroup).not.toBe(await readGroup(process.pid));
  });

  it('refuses a second owner of the folder with a message naming the running cluster', async () => {
    const running = await findRunningPostmaster(path.join(dataDir, 'postgres'));
    await expect(openDatabase(config, { isSharing: false })).rejects.toThrow(
      `The data folder ${dataDir} is in use: its embedded PostgreSQL runs (pid ${running?.pid}, port ${config.embeddedPgPort})`,
    );
  });

  it('lets a sharing process use the running cluster and leaves it running when done', async () => {
    const shared = await openDatabase(config, { isSharing: true });
    expect(shared.source).toMatchObject({ kind: 'embedded', isShared: true });
    const result = await sql<{ answer: number }>`SELECT 1 AS answer`.execute(shared.db);
    expect(result.rows).toEqual([{ answer: 1 }]);
    await shared.db.destroy();
    await shared.cluster?.stop();
    const stillServing = await sql<{ answer: number }>`SELECT 2 AS answer`.execute(owner!.db);
    expect(stillServing.rows).toEqual([{ answer: 2 }]);
  });
});
