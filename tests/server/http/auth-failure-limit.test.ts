import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorBodySchema } from '#shared/api/errors.ts';
import { DEFAULT_RATE_LIMITS } from '#server/config/rate-limits.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';

describe('failed authentication limit', () => {
  let api: ApiHarness;
  let alice: TestUser;
  beforeAll(async () => {
    api = await startApiHarness({ rateLimits: DEFAULT_RATE_LIMITS });
    alice = await api.createUser('alice', 'best');
  });
  afterAll(async () => api.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const readAccount = (remoteAddress: string, token: string): Promise<LightMyRequestResponse> =>
    api.app.inject({
      method: 'GET',
      url: '/v2/account',
      remoteAddress,
      headers: { authorization: `Bearer ${token}` },
    });

  it('answers 429 to bad tokens from an address after 20 failed authentications a minute, until the minute is over', async () => {
    const badToken = await api.idp.issueForeignToken({ subject: 'mallory' });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 400; attempt += 1) {
      statuses.push((await readAccount('203.0.113.66', `${badToken}${attempt}`)).statusCode);
    }
    const limit = DEFAULT_RATE_LIMITS.authFailuresPerAddressPerMinute;
    expect(statuses.slice(0, limit).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(limit).every((status) => status === 429)).toBe(true);

    const refused = await readAccount('203.0.113.66', `${badToken}again`);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(errorBodySchema.parse(refused.json()).code).toBe('rate_limited');
    // A good token from that address is still served: someone else's guesses lock no one out.
    expect((await readAccount('203.0.113.66', alice.token)).statusCode).toBe(200);
    expect((await readAccount('203.0.113.67', alice.token)).statusCode).toBe(200);

    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ['Date'] });
    expect((await readAccount('203.0.113.66', `${badToken}later`)).statusCode).toBe(401);
  });

  it('counts requests without any token as failures too', async () => {
    const statuses: number[] = [];
    for (
      let attempt = 0;
      attempt <= DEFAULT_RATE_LIMITS.authFailuresPerAddressPerMinute;
      attempt += 1
    ) {
      const answer = await api.app.inject({
        method: 'GET',
        url: '/v2/searches/my_searches',
        remoteAddress: '203.0.113.68',
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses.at(-2)).toBe(401);
    expect(statuses.at(-1)).toBe(429);
  });

  it('does not count signed-in requests that succeed', async () => {
    for (let attempt = 0; attempt < 30; attempt += 1) {
      expect((await readAccount('203.0.113.69', alice.token)).statusCode).toBe(200);
    }
  });
});
