import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfigSchema, errorBodySchema } from '#shared/api/index.ts';
import { buildApp } from '#server/app.ts';
import { startApiHarness, type ApiHarness } from '#tests/helpers/api-harness.ts';

describe('error answers', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(async () => api.close());

  it('give a code for programs, a sentence for people and the detail on every kind of failure', async () => {
    const user = await api.createUser('errors', 'best');
    const answers = [
      await api.call({ method: 'GET', url: '/v2/account' }),
      await api.call({ method: 'POST', url: '/v2/searches', as: user, body: { store_id: 1 } }),
      await api.call({ method: 'GET', url: '/v2/no-such-route' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([401, 400, 404]);
    for (const answer of answers) {
      const body = errorBodySchema.parse(answer.json());
      expect(body.code).toMatch(/^[a-z_]+$/);
      // A sentence: capitalised, ends with a full stop, and is not the code itself.
      expect(body.reason).toMatch(/^[A-Z].*\.$/);
      expect(body.message).not.toBe('');
    }
  });

  it("answers the rate limit with 429, its sentence and the limiter's own detail", async () => {
    const limited = await buildApp({
      db: api.testDb.db,
      verifyToken: () => Promise.reject(new Error('unused')),
      website: appConfigSchema.parse(
        (await api.call({ method: 'GET', url: '/app-config.json' })).json(),
      ),
      corsOrigins: [],
      logLevel: 'silent',
      rateLimits: { perAddressPerMinute: 1 },
    });
    expect((await limited.inject({ method: 'GET', url: '/v2/countries' })).statusCode).toBe(200);
    const refused = await limited.inject({ method: 'GET', url: '/v2/countries' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 'rate_limited',
      reason: "You're sending requests too quickly. Please wait a moment and try again.",
      message: expect.stringMatching(/^Too many requests; try again in \d+ s$/) as unknown,
    });
    await limited.close();
  });

  it('answers request headers over 16 KiB with 431 and the API error body, before any route', async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    const address = api.app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const raw = await sendRawRequest(
      port,
      `GET /v2/countries HTTP/1.1\r\nHost: localhost\r\nCookie: big=${'x'.repeat(20_000)}\r\n\r\n`,
    );
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(head).toMatch(/content-type: application\/json/i);
    expect(errorBodySchema.parse(JSON.parse(body))).toEqual({
      code: 'request_too_large',
      reason: 'This request was too large to read. Please reload the page and try again.',
      message: 'Request header fields too large',
    });
  });
});

/** Writes `request` on a new connection and reads until the server closes it. */
function sendRawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
