import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { buildTooManyRequestsError, createMinuteLimiter, readAddressKey } from './rate-limits.ts';

/**
 * Counts 401 answers per client address; once an address has had `perMinute` of them, every
 * request of the scope from it is answered 429 until its minute is over. Register it before
 * the `authenticate` hook so a refused address costs no token verification.
 *
 * The counting is @fastify/rate-limit's own store, used through `createRateLimit`: read
 * without counting on the way in, counted on the way out only when the answer was a 401 (its
 * per-route hooks count every request, which would refuse a busy signed-in address too).
 */
export const authFailureLimitPlugin = fp(
  async (app: FastifyInstance, options: { perMinute: number }) => {
    const failures = await createMinuteLimiter(app, options.perMinute, readAddressKey);
    app.addHook('onRequest', async (request, reply) => {
      const seen = await failures(request, { increment: false });
      if (!seen.isAllowed && seen.remaining === 0 && seen.ttl > 0) {
        throw buildTooManyRequestsError(reply, seen.ttlInSeconds);
      }
    });
    app.addHook('onResponse', async (request, reply) => {
      if (reply.statusCode === 401) {
        await failures(request);
      }
    });
  },
  { name: 'auth-failure-limit' },
);
