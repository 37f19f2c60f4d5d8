import type { FastifyInstance, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '#shared/api/errors.ts';
import { DEFAULT_RATE_LIMITS } from '#server/config/rate-limits.ts';
import { readAddressKey } from '#server/http/rate-limits.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';

/** Sends one request after another (a single client), returning every answer. */
async function sendInTurn(
  count: number,
  send: (index: number) => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse[]> {
  const answers: LightMyRequestResponse[] = [];
  for (let index = 0; index < count; index += 1) {
    answers.push(await send(index));
  }
  return answers;
}

function countStatuses(answers: LightMyRequestResponse[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.statusCode] = (counts[answer.statusCode] ?? 0) + 1;
  return counts;
}

const NEW_SEARCH = { product_type: 'iphone16pro', store_id: 'R095' };

describe('API rate limits', () => {
  let api: ApiHarness;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    // The limits and proxy trust npm start has with no environment set.
    api = await startApiHarness({ rateLimits: DEFAULT_RATE_LIMITS });
    alice = await api.createUser('alice', 'best');
    bob = await api.createUser('bob', 'best');
  });
  afterAll(async () => api.close());

  it('refuses the 301st public request a minute from one client however it rotates X-Forwarded-For', async () => {
    const answers = await sendInTurn(400, (index) =>
      api.app.inject({
        method: 'GET',
        url: '/v2/countries',
        remoteAddress: '203.0.113.7',
        headers: { 'x-forwarded-for': `198.51.100.${index % 250}, 10.0.${index}.1` },
      }),
    );
    expect(countStatuses(answers)).toEqual({ 200: 300, 429: 100 });
    expect(answers.slice(0, 300).every((answer) => answer.statusCode === 200)).toBe(true);
    const refused = answers[399];
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(errorBodySchema.parse(refused.json())).toMatchObject({ code: 'rate_limited' });
  });

  it("counts IPv6 clients by /64, the block one subscriber gets, so rotating the host part doesn't help", async () => {
    const answers = await sendInTurn(301, (index) =>
      api.app.inject({
        method: 'GET',
        url: '/v2/countries',
        remoteAddress: `2001:db8:7:7::${index.toString(16)}`,
      }),
    );
    expect(answers.at(-1)?.statusCode).toBe(429);
  });

  it('lets a signed-in user read 50 times in a second from an address other users share', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        api.app.inject({
          method: 'GET',
          url: '/v2/searches/my_searches',
          remoteAddress: '203.0.113.7',
          headers: { authorization: `Bearer ${alice.token}` },
        }),
      ),
    );
    expect(countStatuses(answers)).toEqual({ 200: 50 });
  });

  it('limits the checkout calls per address, tighter than the other public routes', async () => {
    const answers = await sendInTurn(DEFAULT_RATE_LIMITS.checkoutPerAddressPerMinute + 1, () =>
      api.app.inject({
        method: 'POST',
        url: '/v2/account/post_checkout',
        remoteAddress: '203.0.113.50',
        payload: { session_id: 'cs_test_guess' },
      }),
    );
    expect(answers.slice(0, -1).every((answer) => answer.statusCode === 503)).toBe(true);
    expect(answers.at(-1)?.statusCode).toBe(429);
    const otherPublic = await api.app.inject({
      method: 'GET',
      url: '/v2/countries',
      remoteAddress: '203.0.113.50',
    });
    expect(otherPublic.statusCode).toBe(200);
  });

  describe('with small limits', () => {
    let limited: FastifyInstance;
    beforeAll(async () => {
      limited = await api.buildVariant({
        rateLimits: { ...DEFAULT_RATE_LIMITS, perUserPerMinute: 6, userWritesPerMinute: 2 },
      });
    });
    afterAll(async () => limited.close());

    const readAs = (user: TestUser): Promise<LightMyRequestResponse> =>
      limited.inject({
        method: 'GET',
        url: '/v2/account',
        remoteAddress: '192.0.2.1',
        headers: { authorization: `Bearer ${user.token}` },
      });

    it('counts signed-in requests per user, not per address, and writes apart and tighter', async () => {
      const writes = await sendInTurn(3, () =>
        limited.inject({
          method: 'POST',
          url: '/v2/searches',
          remoteAddress: '192.0.2.1',
          headers: { authorization: `Bearer ${alice.token}` },
          payload: NEW_SEARCH,
        }),
      );
      expect(writes.map((answer) => answer.statusCode)).toEqual([201, 201, 429]);
      // Reads still go through until the user's overall budget (6, writes included) is spent.
      const reads = await sendInTurn(4, () => readAs(alice));
      expect(reads.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429]);
      // Another user at the same address has a budget of their own.
      expect((await readAs(bob)).statusCode).toBe(200);
    });

    it('counts invalid writes too: validation runs after the limit', async () => {
      const answers = await sendInTurn(3, () =>
        limited.inject({
          method: 'POST',
          url: '/v2/searches',
          remoteAddress: '192.0.2.2',
          headers: { authorization: `Bearer ${bob.token}` },
          payload: { store_id: 1 },
        }),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([400, 400, 429]);
    });
  });

  describe('behind a proxy (TRUST_PROXY)', () => {
    let proxied: FastifyInstance;
    beforeAll(async () => {
      proxied = await api.buildVariant({
        trustProxy: ['10.0.0.0/8'],
        rateLimits: { ...DEFAULT_RATE_LIMITS, perAddressPerMinute: 3 },
      });
    });
    afterAll(async () => proxied.close());

    const get = (remoteAddress: string, forwardedFor: string): Promise<LightMyRequestResponse> =>
      proxied.inject({
        method: 'GET',
        url: '/v2/countries',
        remoteAddress,
        headers: { 'x-forwarded-for': forwardedFor },
      });

    it('gives each client named by the trusted proxy a budget of its own', async () => {
      const first = await sendInTurn(4, () => get('10.1.2.3', '198.51.100.1'));
      expect(first.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429]);
      expect((await get('10.1.2.3', '198.51.100.2')).statusCode).toBe(200);
    });

    it('ignores X-Forwarded-For from a peer that is not the proxy', async () => {
      const answers = await sendInTurn(4, (index) => get('198.51.100.9', `203.0.113.${index}`));
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429]);
    });
  });

  it('keys a request whose client has already gone without throwing', () => {
    // What Fastify's request looks like once the socket has closed: no ip, no remote address.
    const gone = { ip: undefined, raw: { socket: { remoteAddress: undefined } } };
    expect(readAddressKey(gone as unknown as FastifyRequest)).toBe('address:gone');
  });
});
