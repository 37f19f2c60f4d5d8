import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '#shared/api/errors.ts';
import { AppError } from '#server/base/app-error.ts';

const MINUTE_MS = 60_000;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Longer than any address: a trusted proxy may still forward a junk X-Forwarded-For entry.
const MAX_ADDRESS_KEY_LENGTH = 64;

/** A counter of @fastify/rate-limit (`createRateLimit`), one window of a minute per key. */
export type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

// The address is read once, while the client is still connected: once it has gone,
// `request.ip` is undefined, which made @fastify/rate-limit's own key generator throw. It is
// kept on the raw request under a symbol: a WeakMap entry per request cost a cheap route
// about 2 % of its speed, and every app that limits (the API, the login provider) shares it.
const ADDRESS_KEY = Symbol('shelfwatch.addressKey');

type KeyedMessage = FastifyRequest['raw'] & { [ADDRESS_KEY]?: string };

/**
 * The client's address as a limiter key: as `request.ip` says under the TRUST_PROXY setting,
 * IPv6 grouped by /64 (what one subscriber gets), and one shared key for clients already gone.
 */
export function readAddressKey(request: FastifyRequest): string {
  const raw = request.raw as KeyedMessage;
  const known = raw[ADDRESS_KEY];
  if (known !== undefined) {
    return known;
  }
  const address = (request.ip as string | undefined) ?? raw.socket?.remoteAddress;
  if (address === undefined) {
    return 'address:gone';
  }
  const key = `address:${normaliseAddress(address.slice(0, MAX_ADDRESS_KEY_LENGTH))}`;
  raw[ADDRESS_KEY] = key;
  return key;
}

function normaliseAddress(address: string): string {
  // An IPv4 address is its own key; only IPv6 needs parsing (to group it by /64).
  if (!address.includes(':')) {
    return address;
  }
  try {
    return normalizeIP(address, 64);
  } catch {
    // An IPv6 form its parser refuses (a zone id, a forwarded junk entry): keep it as written.
    return address.toLowerCase();
  }
}

/** The 429 answer, with Retry-After; `reason` tells the person which limit it was. */
export function buildTooManyRequestsError(
  reply: FastifyReply,
  seconds: number,
  reason?: string,
): AppError {
  void reply.header('retry-after', String(seconds));
  return new AppError(
    429,
    ERROR_CODES.rateLimited,
    `Too many requests; try again in ${seconds} s`,
    reason === undefined ? {} : { reason },
  );
}

/**
 * A counter of `max` requests per `windowMs` keyed by `keyOf` (fixed windows from a key's
 * first request); @fastify/rate-limit is registered here when no ancestor has it.
 */
export async function createWindowLimiter(
  app: FastifyInstance,
  limit: { max: number; windowMs: number },
  keyOf: (request: FastifyRequest) => string,
): Promise<Limiter> {
  if (!app.hasDecorator('createRateLimit')) {
    await app.register(rateLimit, { global: false });
  }
  return app.createRateLimit({ max: limit.max, timeWindow: limit.windowMs, keyGenerator: keyOf });
}

/** A per-minute counter keyed by `keyOf`. */
export async function createMinuteLimiter(
  app: FastifyInstance,
  max: number,
  keyOf: (request: FastifyRequest) => string,
): Promise<Limiter> {
  return await createWindowLimiter(app, { max, windowMs: MINUTE_MS }, keyOf);
}

/** Whether a limiter's answer refuses the request. */
function isRefused(result: Awaited<ReturnType<Limiter>>): result is Awaited<ReturnType<Limiter>> & {
  isAllowed: false;
} {
  return !result.isAllowed && result.isExceeded;
}

/** Counts the request and throws the 429 answer (with `reason`) once the key is over its limit. */
export async function enforceLimit(
  limiter: Limiter,
  request: FastifyRequest,
  reply: FastifyReply,
  reason?: (seconds: number) => string,
): Promise<void> {
  const result = await limiter(request);
  if (isRefused(result)) {
    throw buildTooManyRequestsError(reply, result.ttlInSeconds, reason?.(result.ttlInSeconds));
  }
}

/** An onRequest hook limiting each client address to `max` requests a minute. */
export async function createAddressLimitHook(
  app: FastifyInstance,
  max: number,
): Promise<onRequestHookHandler> {
  const limiter = await createMinuteLimiter(app, max, readAddressKey);
  // Callback style: it runs before every public read, where an async hook's extra promise
  // turns are a measurable share of the cheapest routes' time.
  return (request, reply, done) => {
    limiter(request).then(
      (result) =>
        done(isRefused(result) ? buildTooManyRequestsError(reply, result.ttlInSeconds) : undefined),
      done,
    );
  };
}

/** Limits every route of the scope it is registered in per client address (public routes). */
export const addressRateLimitPlugin = fp(
  async (app: FastifyInstance, options: { perMinute: number }) => {
    app.addHook('onRequest', await createAddressLimitHook(app, options.perMinute));
  },
  { name: 'address-rate-limit' },
);

/**
 * Limits signed-in routes per user, all requests and writes apart. Register it after the
 * `authenticate` onRequest hook: it keys on the user that hook resolved, and runs before
 * body parsing and validation so that invalid requests count too.
 */
export const userRateLimitPlugin = fp(
  async (app: FastifyInstance, options: { perMinute: number; writesPerMinute: number }) => {
    const keyOfUser = (request: FastifyRequest): string =>
      request.authenticatedUser === null
        ? readAddressKey(request)
        : `user:${request.authenticatedUser.id}`;
    const all = await createMinuteLimiter(app, options.perMinute, keyOfUser);
    const writes = await createMinuteLimiter(app, options.writesPerMinute, keyOfUser);
    app.addHook('onRequest', async (request, reply) => {
      await enforceLimit(all, request, reply);
      if (WRITE_METHODS.has(request.method)) {
        await enforceLimit(writes, request, reply);
      }
    });
  },
  { name: 'user-rate-limit' },
);
