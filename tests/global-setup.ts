import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '#server/db/embedded-postgres.ts';
import { getFreePort } from './helpers/free-port.ts';

// Declaration merging needs an interface: it extends Vitest's own.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

/**
 * One PostgreSQL for the whole run: TEST_DATABASE_URL when set (a superuser URL of a
 * disposable server), otherwise an embedded cluster in a temporary folder. Each test file
 * creates its own database on it (tests/helpers/test-database.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  keepFailingExitCode();
  const external = process.env.TEST_DATABASE_URL;
  if (external !== undefined && external !== '') {
    project.provide('adminDatabaseUrl', external);
    return () => Promise.resolve();
  }
  const folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-test-pg-'));
  // The unprivileged postgres user must be able to reach the cluster folder inside.
  await chmod(folder, 0o755);
  const cluster = await startEmbeddedPostgres({
    directory: path.join(folder, 'pg'),
    port: await getFreePort(),
    password: 'test-only-password',
  });
  project.provide('adminDatabaseUrl', cluster.connectionString('postgres'));
  return async () => {
    await cluster.stop();
    await rm(folder, { recursive: true, force: true });
  };
}

/**
 * embedded-postgres registers async-exit-hook, which answers Node's 'beforeExit' with
 * process.exit(0): that would turn vitest's failing exit code into success, so a red run
 * would look green to CI. The code vitest chose is kept and restored on exit.
 */
function keepFailingExitCode(): void {
  let intended: number | string | null | undefined;
  process.on('beforeExit', () => {
    intended = process.exitCode;
  });
  process.on('exit', () => {
    if (intended !== undefined && intended !== null && intended !== 0) process.exitCode = intended;
  });
}
