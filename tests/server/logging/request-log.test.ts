import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { createLogger } from '#server/logging/logger.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

type LogRecord = { level: number; msg: string; component?: string; reqId?: string };

const DEBUG = 20;
const INFO = 30;
const ERROR = 50;

describe('request logging', () => {
  let testDb: TestDatabase;
  const apps: FastifyInstance[] = [];
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await testDb?.drop();
  });

  /** The real app logging JSON at `level` into a list, with one route that crashes. */
  async function buildLoggedApp(
    level: string,
  ): Promise<{ app: FastifyInstance; records: LogRecord[] }> {
    const records: LogRecord[] = [];
    const logger = createLogger({
      level,
      isTerminal: false,
      destination: { write: (chunk) => records.push(JSON.parse(chunk) as LogRecord) },
    });
    const app = await buildApp({
      db: testDb.db,
      verifyToken: () => Promise.reject(new Error('no tokens in this test')),
      website: {
        auth: { domain: 'http://localhost:4000', clientId: 'shelfwatch-web', audience: 'api' },
        apiBaseUrl: 'http://localhost:3000',
        supportEmail: 'support@shelfwatch.app',
        supportEndDate: 'September 8th, 2025',
        maker: { name: 'Lantern Apps', url: 'https://lanternapps.dev' },
        isBillingConfigured: false,
        macDownloadUrl: null,
        cookiePrefix: 'shelfwatch_',
      },
      corsOrigins: ['http://localhost:3000'],
      logger,
    });
    app.get('/crash', async () => {
      throw new Error('crashed on purpose');
    });
    apps.push(app);
    await app.ready();
    return { app, records };
  }

  it('writes nothing at info for requests that succeed or miss', async () => {
    const { app, records } = await buildLoggedApp('info');
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/v2/products' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/v2/nothing-here' })).statusCode).toBe(404);
    expect(records).toEqual([]);
  });

  it('writes one debug line per request at debug, naming method, path and status', async () => {
    const { app, records } = await buildLoggedApp('debug');
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/v2/nothing-here' });
    const requestLines = records.filter((record) => record.component === 'http');
    expect(requestLines.map((record) => record.level)).toEqual([DEBUG, DEBUG]);
    expect(requestLines[0].msg).toMatch(/^GET \/healthz 200 in \d+ ms$/);
    expect(requestLines[1].msg).toMatch(/^GET \/v2\/nothing-here 404 in \d+ ms$/);
    expect(records.some((record) => record.level >= INFO)).toBe(false);
  });

  it('still logs a server error at error level', async () => {
    const { app, records } = await buildLoggedApp('info');
    expect((await app.inject({ method: 'GET', url: '/crash' })).statusCode).toBe(500);
    const errors = records.filter((record) => record.level === ERROR);
    expect(errors.length).toBeGreaterThan(0);
    // The request's logger is made lazily, but its lines still carry the request id.
    expect(errors.every((record) => typeof record.reqId === 'string' && record.reqId !== '')).toBe(
      true,
    );
    expect(errors.some((record) => /^GET \/crash 500 in \d+ ms$/.test(record.msg))).toBe(true);
  });
});
