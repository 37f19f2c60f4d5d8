// What the API benchmark runs on: its database, the bare Fastify baseline, the machine.
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '#server/db/database.ts';
import { startEmbeddedPostgres } from '#server/db/embedded-postgres.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';

/** A database of the benchmark's own, dropped (with its embedded server) by `close`. */
export type BenchDatabase = { url: string; label: string; close: () => Promise<void> };

/**
 * A fresh database on BENCH_DATABASE_URL or TEST_DATABASE_URL (a superuser URL of a
 * disposable server) when set, else on an embedded cluster in a temporary folder.
 */
export async function openBenchDatabase(): Promise<BenchDatabase> {
  const external = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  let adminUrl: string;
  let label: string;
  let stopServer = async (): Promise<void> => undefined;
  if (external !== undefined && external !== '') {
    adminUrl = external;
    label = `server at ${new URL(external).host}`;
  } else {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-bench-api-'));
    // The unprivileged postgres user must be able to reach the cluster folder inside.
    await chmod(folder, 0o755);
    const cluster = await startEmbeddedPostgres({
      directory: path.join(folder, 'pg'),
      port: await getFreePort(),
      password: 'bench-only',
    });
    adminUrl = cluster.connectionString('postgres');
    label = `embedded, default settings, data in ${folder}`;
    stopServer = async () => {
      await cluster.stop();
      await rm(folder, { recursive: true, force: true });
    };
  }
  const name = `shelfwatch_bench_${randomBytes(4).toString('hex')}`;
  const runAdmin = async (statement: string): Promise<void> => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(statement).finally(() => admin.end());
  };
  await runAdmin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    label,
    close: async () => {
      await runAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await stopServer();
    },
  };
}

/** The server's version string, e.g. "18.4". */
export async function readServerVersion(db: Db): Promise<string> {
  const { rows } = await sql<{ server_version: string }>`show server_version`.execute(db);
  return rows[0]?.server_version ?? 'unknown';
}

/**
 * Waits until no connection named `applicationName` is running a statement, so requests a
 * finished load left in flight do not eat into the next one's time.
 */
export async function waitForIdleConnections(db: Db, applicationName: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let quietPolls = 0;
  while (quietPolls < 2 && Date.now() < deadline) {
    const { rows } = await sql<{ busy: number }>`
      select count(*)::int as busy from pg_stat_activity
      where application_name = ${applicationName} and state <> 'idle'`.execute(db);
    quietPolls = (rows[0]?.busy ?? 0) === 0 ? quietPolls + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The one-route app every figure is compared with: Fastify's defaults, a small JSON object. */
export async function startBareFastify(): Promise<FastifyInstance> {
  const bare = Fastify();
  bare.get('/bare', async () => ({ hello: 'world', isBare: true }));
  await bare.listen({ host: '127.0.0.1', port: await getFreePort() });
  return bare;
}

/** The http origin a listening app answers on. */
export function readOrigin(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('app is not listening');
  return `http://127.0.0.1:${address.port}`;
}

/** CPU, cores, memory, load and Node version, for the report's first lines. */
export function describeMachine(): string {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return [
    `machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${os.availableParallelism()} cores, ` +
      `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, load average ${load} at start`,
    `Node ${process.version} on ${os.platform()} ${os.release()}`,
  ].join('\n');
}
