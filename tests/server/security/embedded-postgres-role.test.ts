import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig } from '#server/config/app-config.ts';
import { APPLICATION_ROLE } from '#server/db/application-role.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { openDatabase, type OpenedDatabase } from '#server/db/open-database.ts';
import { QUEUE_SCHEMA } from '#server/db/queue-schema.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';

// Issue 43, item 5: the embedded PostgreSQL starts with a minimal environment, and the
// application connects as a role that is no superuser, so `COPY ... FROM PROGRAM` is refused.
// The cluster is a real one in a data folder made as before the change (owner only).

/** A secret of the server's environment, as the probe's proxy password was. */
const PROBE_SECRET_NAME = 'SHELFWATCH_PROBE_PROXY_PASSWORD';
const PROBE_SECRET = 'probe-proxy-password-4b1d';

/** Runs `statement` and answers PostgreSQL's SQLSTATE, or 'ok'. */
async function readSqlState(client: pg.Client, statement: string): Promise<string> {
  return await client.query(statement).then(
    () => 'ok',
    (error: unknown) => String((error as { code?: unknown }).code),
  );
}

/** A pg-boss on `connectionString`, without its timers: install, queues, jobs only. */
function createQueue(connectionString: string): PgBoss {
  const boss = new PgBoss({
    connectionString,
    schema: QUEUE_SCHEMA,
    max: 2,
    schedule: false,
    supervise: false,
  });
  boss.on('error', () => undefined);
  return boss;
}

describe('the embedded cluster and the application role', () => {
  let dataDir: string;
  let config: AppConfig;
  let application: OpenedDatabase;
  let appClient: pg.Client;
  let ownerUrl: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-security-pg-'));
    // Embedded PostgreSQL runs as an unprivileged user when started by root: let it in.
    await chmod(dataDir, 0o755);
    config = loadConfig({
      SHELFWATCH_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await getFreePort()),
    });
    process.env[PROBE_SECRET_NAME] = PROBE_SECRET;

    // A data folder from before the change: the owner made the tables, the queue schema and
    // a queue, and holds an account.
    const before = await openDatabase(config, { isSharing: false });
    ownerUrl = before.connectionString;
    await migrateToLatest(before.db);
    const ownersQueue = createQueue(ownerUrl);
    await ownersQueue.start();
    await ownersQueue.createQueue('probe-before');
    await ownersQueue.stop({ graceful: false });
    await before.db
      .insertInto('users')
      .values({
        issuer: 'https://idp.test/',
        subject: 'before',
        email: 'before@example.com',
        plan: 'best',
      })
      .execute();
    await before.db.destroy();
    await before.cluster?.stop();

    application = await openDatabase(config, { isSharing: false, asApplication: true });
    appClient = new pg.Client({ connectionString: application.connectionString });
    await appClient.connect();
  }, 120_000);

  afterAll(async () => {
    delete process.env[PROBE_SECRET_NAME];
    await appClient?.end();
    await application?.db.destroy();
    await application?.cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('connects the application as a role that is no superuser, with a password of its own', async () => {
    const role = await appClient.query<{ name: string; is_superuser: boolean }>(
      'select current_user as name, rolsuper as is_superuser from pg_roles where rolname = current_user',
    );
    expect(role.rows).toEqual([{ name: APPLICATION_ROLE, is_superuser: false }]);
    const passwordFile = path.join(dataDir, 'postgres-app-password');
    expect(application.connectionString).toContain(
      encodeURIComponent((await readFile(passwordFile, 'utf8')).trim()),
    );
    expect((await stat(passwordFile)).mode & 0o077).toBe(0);
  });

  it('refuses COPY ... FROM PROGRAM, server files and DDL to the application', async () => {
    await appClient.query('create temporary table probe_lines (line text)');
    expect(await readSqlState(appClient, "copy probe_lines from program 'env'")).toBe('42501');
    expect(await readSqlState(appClient, "copy probe_lines from '/etc/passwd'")).toBe('42501');
    expect(await readSqlState(appClient, "select pg_read_file('postgresql.conf')")).toBe('42501');
    expect(await readSqlState(appClient, "alter system set log_statement = 'all'")).toBe('42501');
    expect(await readSqlState(appClient, 'create table public.probe (id int)')).toBe('42501');
    expect(await readSqlState(appClient, 'drop table users')).toBe('42501');
    expect(await readSqlState(appClient, "delete from kysely_migration where name like '0%'")).toBe(
      '42501',
    );
    expect(await readSqlState(appClient, 'create schema probe')).toBe('42501');
  });

  it('keeps the data of the folder made before, readable and writable by the application', async () => {
    const users = await application.db
      .selectFrom('users')
      .select(['subject', 'email'])
      .where('subject', '=', 'before')
      .execute();
    expect(users).toEqual([{ subject: 'before', email: 'before@example.com' }]);
    await application.db
      .updateTable('users')
      .set({ email: 'after@example.com' })
      .where('subject', '=', 'before')
      .execute();
    // Nothing left to migrate, and checking that needs no more than reading.
    expect(await migrateToLatest(application.db)).toEqual([]);
  });

  it('runs pg-boss as the application on the queue schema the owner installed', async () => {
    const boss = createQueue(application.connectionString);
    await boss.start();
    try {
      await boss.createQueue('probe-after');
      const id = await boss.send('probe-before', { probe: true });
      const [job] = await boss.fetch<{ probe: boolean }>('probe-before');
      expect(job?.id).toBe(id);
      expect(job?.data).toEqual({ probe: true });
      await boss.complete('probe-before', job?.id ?? '');
      expect(await boss.send('probe-after', { probe: true })).not.toBeNull();
    } finally {
      await boss.stop({ graceful: false });
    }
    const owners = await appClient.query<{ owner: string }>(
      `select distinct pg_get_userbyid(relowner) as owner from pg_class
        where relnamespace = $1::regnamespace and relkind in ('r', 'p')`,
      [QUEUE_SCHEMA],
    );
    expect(owners.rows).toEqual([{ owner: APPLICATION_ROLE }]);
  });

  it('starts PostgreSQL with PATH, the locale and its own variables only', async () => {
    const owner = new pg.Client({ connectionString: ownerUrl });
    await owner.connect();
    try {
      await owner.query('create temporary table environment (line text)');
      await owner.query("copy environment from program 'env'");
      const lines = (await owner.query<{ line: string }>('select line from environment')).rows.map(
        (row) => row.line,
      );
      const names = lines.map((line) => line.split('=')[0] ?? '');
      expect(names).toContain('PATH');
      expect(names).toContain('PGDATA');
      expect(names).toContain('LC_MESSAGES');
      expect(names).not.toContain(PROBE_SECRET_NAME);
      expect(lines.join('\n')).not.toContain(PROBE_SECRET);
      // Nothing of the server's own settings either (DATABASE_URL, proxies, tokens).
      expect(names.filter((name) => /URL|TOKEN|SECRET|PASSWORD|PROXY/i.test(name))).toEqual([]);
    } finally {
      await owner.end();
    }
  });

  it('lets a worker join the running cluster as the application', async () => {
    const worker = await openDatabase(config, { isSharing: true, asApplication: true });
    try {
      expect(worker.source).toMatchObject({ kind: 'embedded', isShared: true });
      const who = await sql<{ name: string }>`select current_user as name`.execute(worker.db);
      expect(who.rows).toEqual([{ name: APPLICATION_ROLE }]);
      const count = await worker.db.selectFrom('users').select('id').execute();
      expect(count.length).toBeGreaterThan(0);
    } finally {
      await worker.db.destroy();
      await worker.cluster?.stop();
    }
    // The application's own connection is untouched by the worker's start.
    expect((await appClient.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});

describe('a new data folder', () => {
  it('installs the queue schema for the application, which then runs pg-boss there', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-security-new-'));
    await chmod(dataDir, 0o755);
    const config = loadConfig({
      SHELFWATCH_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await getFreePort()),
    });
    const opened = await openDatabase(config, { isSharing: false, asApplication: true });
    const boss = createQueue(opened.connectionString);
    try {
      await boss.start();
      await boss.createQueue('probe-new');
      expect(await boss.send('probe-new', { probe: true })).not.toBeNull();
      const who = await sql<{ name: string }>`select current_user as name`.execute(opened.db);
      expect(who.rows).toEqual([{ name: APPLICATION_ROLE }]);
    } finally {
      await boss.stop({ graceful: false });
      await opened.db.destroy();
      await opened.cluster?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
