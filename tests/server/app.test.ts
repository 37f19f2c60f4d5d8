import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfigSchema } from '#shared/api/app-config.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';

describe('response headers of the API', () => {
  let api: ApiHarness;
  let alice: TestUser;
  beforeAll(async () => {
    api = await startApiHarness();
    alice = await api.createUser('alice', 'best');
  });
  afterAll(async () => api.close());

  it('marks every signed-in answer no-store, refusals included', async () => {
    const answers = [
      await api.call({ method: 'GET', url: '/v2/account', as: alice }),
      await api.call({ method: 'GET', url: '/v2/searches/my_searches', as: alice }),
      await api.call({ method: 'GET', url: '/v2/account' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 401]);
    for (const answer of answers) {
      expect(answer.headers['content-type']).toContain('application/json');
      expect(answer.headers['cache-control']).toBe('no-store');
    }
  });

  it('sends no HSTS header when the site is served over plain http', async () => {
    const answer = await api.call({ method: 'GET', url: '/v2/countries' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  });

  describe('on https', () => {
    let secure: FastifyInstance;
    beforeAll(async () => {
      const website = appConfigSchema.parse(
        (await api.call({ method: 'GET', url: '/app-config.json' })).json(),
      );
      secure = await api.buildVariant({
        website: { ...website, apiBaseUrl: 'https://shelfwatch.test' },
      });
    });
    afterAll(async () => secure.close());

    it('sends HSTS', async () => {
      const answer = await secure.inject({ method: 'GET', url: '/v2/countries' });
      expect(answer.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    });
  });
});
