import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '#server/base/app-error.ts';
import { extractBearerToken } from './auth/index.ts';
import { buildTooManyRequestsError, createMinuteLimiter, readAddressKey } from './rate-limits.ts';

/**
 * Counts 401 answers per client address. Once an address has had `perMinute` of them, its
 * requests without a token are answered 429 at once, and a request with one is answered 429
 * only when that token fails too: a valid token is never refused for its address (people
 * behind one address, an office or a carrier's NAT, must not be locked out by someone else's
 * guesses). Register it before the `authenticate` hook: it authenticates over-limit requests
 * itself, so that one's own check then finds the user already known.
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
      const isOverLimit = !seen.isAllowed && seen.remaining === 0 && seen.ttl > 0;
      if (!isOverLimit) return;
      if (extractBearerToken(request.headers.authorization) === undefined) {
        throw buildTooManyRequestsError(reply, seen.ttlInSeconds);
      }
      try {
        await app.authenticate(request);
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 401) {
          throw buildTooManyRequestsError(reply, seen.ttlInSeconds);
        }
        throw error;
      }
    });
    app.addHook('onResponse', async (request, reply) => {
      if (reply.statusCode === 401) {
        await failures(request);
      }
    });
  },
  { name: 'auth-failure-limit', dependencies: ['authenticate'] },
);
