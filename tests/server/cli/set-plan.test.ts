import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig } from '#server/config/app-config.ts';
import { findRunningPostmaster } from '#server/db/embedded-postgres.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import {
  findOrCreateUserByIdentity,
  findUsersByEmail,
} from '#server/db/repositories/users-repository.ts';
import { openDatabase, type OpenedDatabase } from '#server/db/open-database.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';

const ROOT_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const EMAIL = 'shopper@example.com';

/** Runs `shelfwatch <args>` as its own process, the way bin/shelfwatch.js does (through tsx). */
async function runCli(
  args: string[],
  environment: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
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

/** The plan of the test account, read through a connection of its own. */
async function readPlan(opened: OpenedDatabase): Promise<string | undefined> {
  return (await findUsersByEmail(opened.db, EMAIL))[0]?.plan;
}

describe('shelfwatch set-plan with the embedded database', () => {
  let dataDir: string;
  let config: AppConfig;
  let environment: Record<string, string>;
  let running: OpenedDatabase | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-cli-'));
    // Embedded PostgreSQL runs as an unprivileged user when started by root: let it in.
    await chmod(dataDir, 0o755);
    environment = {
      SHELFWATCH_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await getFreePort()),
    };
    config = loadConfig(environment);
    // What `npm start` does first: start the folder's cluster and own it.
    running = await openDatabase(config, { isSharing: false });
    await migrateToLatest(running.db);
    await findOrCreateUserByIdentity(running.db, {
      issuer: 'http://localhost:4000/',
      subject: 'shopper',
      email: EMAIL,
    });
  });
  afterAll(async () => {
    await running?.db.destroy();
    await running?.cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('uses the cluster a running stack owns, says so, and leaves it running', async () => {
    const result = await runCli(['set-plan', EMAIL, 'better'], environment);
    expect(result.stderr).toContain(
      `Using the running embedded PostgreSQL on port ${config.embeddedPgPort}`,
    );
    expect(result.stdout).toContain(`Set 1 account(s) with email ${EMAIL} to better.`);
    expect(result.code).toBe(0);
    expect(await readPlan(running!)).toBe('better');
  });

  it('starts the cluster when none runs (past a stale postmaster.pid), says so, and stops it', async () => {
    await running!.db.destroy();
    await running!.cluster?.stop();
    running = undefined;
    const directory = path.join(dataDir, 'postgres');
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    await writeFile(
      path.join(directory, 'postmaster.pid'),
      `${gone.pid}\n${directory}\n1795420000\n${config.embeddedPgPort}\n\n127.0.0.1\n`,
    );

    const result = await runCli(['set-plan', EMAIL, 'best'], environment);
    expect(result.stderr).toContain(
      `Started embedded PostgreSQL on port ${config.embeddedPgPort} for this command (stopped again when done)`,
    );
    expect(result.stdout).toContain(`Set 1 account(s) with email ${EMAIL} to best.`);
    expect(result.code).toBe(0);
    expect(await findRunningPostmaster(directory)).toBeUndefined();

    running = await openDatabase(config, { isSharing: false });
    expect(await readPlan(running)).toBe('best');
  });
});
