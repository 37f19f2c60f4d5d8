// Where the watch benchmark runs: the machine it reports, and its PostgreSQL (an embedded
// cluster in a temporary folder, or a disposable server named by BENCH_DATABASE_URL).
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase, type Db } from '#server/db/database.ts';
import { startEmbeddedPostgres, type EmbeddedCluster } from '#server/db/embedded-postgres.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';

/** Ten workers hold up to 15 connections each (pool, pg-boss, LISTEN): more than the default 100. */
const MAX_CONNECTIONS = 400;

/** The machine, as the report's header states it. */
export function describeMachine(): string[] {
  const cpus = os.cpus();
  const [one, five] = os.loadavg();
  return [
    `Date: ${new Date().toISOString()}`,
    `Machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ` +
      `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${os.type()} ${os.release()}`,
    `Node ${process.version}; load average at start ${one.toFixed(2)} (1 min), ${five.toFixed(2)} (5 min): ` +
      'other work on a shared machine slows every figure.',
  ];
}

/** A PostgreSQL server the run creates its databases on. */
export type BenchServer = {
  label: string;
  /** A fresh, migrated database; dropped by its `drop`, or by `close` at the latest. */
  createDatabase: (name: string) => Promise<{ db: Db; url: string; drop: () => Promise<void> }>;
  close: () => Promise<void>;
};

/** Opens BENCH_DATABASE_URL's server, or starts an embedded cluster with room for ten workers. */
export async function openBenchServer(): Promise<BenchServer> {
  const external = process.env.BENCH_DATABASE_URL;
  let adminUrl: string;
  let label: string;
  let stopServer = async (): Promise<void> => undefined;
  if (external !== undefined && external !== '') {
    adminUrl = external;
    label = `server at ${new URL(external).host}`;
  } else {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-bench-watch-'));
    // The unprivileged postgres user must be able to reach the cluster folder inside.
    await chmod(folder, 0o755);
    const options = {
      directory: path.join(folder, 'pg'),
      port: await getFreePort(),
      password: 'bench-only',
    };
    let cluster: EmbeddedCluster = await startEmbeddedPostgres(options);
    await runStatement(
      cluster.connectionString('postgres'),
      `ALTER SYSTEM SET max_connections = ${MAX_CONNECTIONS}`,
    );
    await cluster.stop();
    cluster = await startEmbeddedPostgres(options);
    adminUrl = cluster.connectionString('postgres');
    label = 'embedded PostgreSQL, default settings but max_connections';
    stopServer = async () => {
      await cluster.stop();
      await rm(folder, { recursive: true, force: true });
    };
  }
  const created: { name: string; db: Db }[] = [];
  const dropDatabase = async ({ name, db }: { name: string; db: Db }): Promise<void> => {
    await db.destroy();
    await runStatement(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  const admin = createDatabase(adminUrl, 1);
  const { rows } = await sql<{ version: string; connections: string }>`
    select current_setting('server_version') as version, current_setting('max_connections') as connections`.execute(
    admin,
  );
  await admin.destroy();
  label = `PostgreSQL ${rows[0]?.version ?? '?'} (${label}, max_connections ${rows[0]?.connections ?? '?'})`;
  return {
    label,
    createDatabase: async (name) => {
      await runStatement(adminUrl, `CREATE DATABASE ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const db = createDatabase(url.toString(), 10);
      await migrateToLatest(db);
      const entry = { name, db };
      created.push(entry);
      return {
        db,
        url: url.toString(),
        drop: async () => {
          created.splice(created.indexOf(entry), 1);
          await dropDatabase(entry);
        },
      };
    },
    close: async () => {
      for (const entry of created.splice(0)) await dropDatabase(entry);
      await stopServer();
    },
  };
}

async function runStatement(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}
