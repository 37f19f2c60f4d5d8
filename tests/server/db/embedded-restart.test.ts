import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { createDatabase, type Db } from '#server/db/database.ts';
import {
  ensureDatabase,
  parsePostmasterPid,
  startEmbeddedPostgres,
  type EmbeddedCluster,
  type RestartEvent,
} from '#server/db/embedded-postgres.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';

// Issue 11: a killed embedded PostgreSQL comes back by itself, and meanwhile the API answers
// 503 with Retry-After instead of 500.

let folder: string;
let cluster: EmbeddedCluster;
let db: Db;
let app: FastifyInstance;
const events: RestartEvent[] = [];

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-restart-'));
  await chmod(folder, 0o755);
  cluster = await startEmbeddedPostgres({
    directory: path.join(folder, 'pg'),
    port: await getFreePort(),
    password: 'restart-test',
    supervise: { onRestart: (event) => events.push(event), backoffMs: [200, 500, 1000] },
  });
  await ensureDatabase(cluster, 'shelfwatch');
  db = createDatabase(cluster.connectionString('shelfwatch'), 4, () => undefined);
  await migrateToLatest(db);
  app = await buildApp({
    db,
    verifyToken: () => Promise.reject(new Error('no tokens in this test')),
    website: {
      auth: { domain: 'http://localhost:4000', clientId: 'web', audience: 'api' },
      apiBaseUrl: 'http://localhost:3000',
      supportEmail: 'support@shelfwatch.app',
      supportEndDate: 'September 8th, 2025',
      maker: { name: 'Lantern Apps', url: 'https://lanternapps.dev' },
      isBillingConfigured: false,
      macDownloadUrl: null,
      cookiePrefix: 'shelfwatch_',
    },
    corsOrigins: [],
    logLevel: 'silent',
  });
}, 120_000);

afterAll(async () => {
  await app.close();
  await db.destroy();
  await cluster.stop();
  await rm(folder, { recursive: true, force: true });
});

describe('a killed embedded PostgreSQL', () => {
  it('is restarted while the API answers 503 with Retry-After, then serves again', async () => {
    expect((await app.inject({ method: 'GET', url: '/v2/status' })).statusCode).toBe(200);
    const pidFile = await readFile(path.join(folder, 'pg', 'postmaster.pid'), 'utf8');
    const postmaster = parsePostmasterPid(pidFile);
    if (postmaster === undefined) throw new Error('no postmaster.pid');
    process.kill(postmaster.pid, 'SIGKILL');

    const statuses = new Set<number>();
    const deadline = Date.now() + 60_000;
    let last = 0;
    while (Date.now() < deadline) {
      const response = await app.inject({ method: 'GET', url: '/v2/status' });
      last = response.statusCode;
      statuses.add(last);
      if (last === 503) {
        expect(response.headers['retry-after']).toBe('5');
        expect(response.json()).toMatchObject({ code: 'service_unavailable' });
      }
      if (last === 200 && statuses.has(503)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(statuses.has(500)).toBe(false);
    expect(statuses.has(503)).toBe(true);
    expect(last).toBe(200);
    expect(events.map((event) => event.kind)).toContain('exited');
    expect(events.at(-1)?.kind).toBe('restarted');
  }, 90_000);
});
