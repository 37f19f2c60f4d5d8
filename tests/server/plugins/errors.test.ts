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
      rateLimitPerMinute: 1,
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
});
