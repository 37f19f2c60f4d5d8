import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { ERROR_CODES } from '#shared/api/errors.ts';
import { createBatchLoader } from '#server/db/batch-loader.ts';
import type { Db } from '#server/db/database.ts';
import { listenToChannel } from '#server/db/listen-channel.ts';
import { announceSearchChange } from '#server/db/repositories/searches-repository.ts';
import {
  findOrCreateUsersByIdentities,
  USER_CHANGE_CHANNEL,
  watchUserChanges,
  type UserIdentity,
} from '#server/db/repositories/users-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { extractBearerToken, TokenRejectedError } from '#server/http/auth/index.ts';
import { AppError } from '#server/base/app-error.ts';

/**
 * Checks a bearer token and says whose it is, and until when (`expiresAt`, epoch ms, the
 * token's `exp`); throws when it is not acceptable.
 */
export type VerifyToken = (token: string) => Promise<UserIdentity & { expiresAt?: number }>;

/** Users kept in memory at most; beyond this the least recently used is dropped. */
const USER_CACHE_SIZE = 5000;

/**
 * Longest a cached user row is trusted. Changes made in this process drop the entry at once
 * through watchUserChanges, and changes made elsewhere (`shelfwatch set-plan` in a process
 * of its own, billing webhooks answered by another API process) through the NOTIFY on
 * USER_CHANGE_CHANNEL when the app is given its database URL. This bound is the fallback for
 * a change whose notification was lost: a plan change still shows within half a minute while
 * a busy user costs one read per half minute.
 */
export const USER_CACHE_MAX_AGE_MS = 30_000;

/**
 * A busy user's row is read again in the background from this share of the maximum age on
 * (drawn per entry up to the maximum age itself), so requests do not wait for it at expiry.
 */
const REFRESH_FROM_SHARE = 0.5;

type CachedUser = {
  user: Promise<UserRow>;
  userId: string | undefined;
  expiresAt: number;
  refreshAt: number;
  isRefreshing: boolean;
};

/** User rows kept in memory per identity (see createUserCache). */
export type UserCache = {
  /** The identity's user, from memory while fresh. */
  resolve: (identity: UserIdentity & { expiresAt?: number }, now?: number) => Promise<UserRow>;
  /** Drops the user's entry, and any still loading (whose user is not known yet). */
  forget: (userId: string) => void;
  /** Drops every entry (changes may have been missed). */
  forgetAll: () => void;
  /** How many identities are cached. */
  countEntries: () => number;
};

/**
 * User rows by identity (issuer and subject), each resolved once (read, or created on first
 * sight) and kept until the token's expiry or `maxAgeMs`, whichever comes first; the least
 * recently used go beyond `maxEntries`. Concurrent requests of one identity share one read.
 * A row in use is read again in the background once it is between half and all of
 * `maxAgeMs` old (drawn by `random` per entry) while requests keep the row they have: users
 * who signed in together (a restart, a morning rush) would otherwise all wait on the
 * database at the same instant, which showed in everyone's tail latency.
 */
export function createUserCache(
  load: (identity: UserIdentity) => Promise<UserRow>,
  options: { maxEntries?: number; maxAgeMs?: number; random?: () => number } = {},
): UserCache {
  const maxEntries = options.maxEntries ?? USER_CACHE_SIZE;
  const maxAgeMs = options.maxAgeMs ?? USER_CACHE_MAX_AGE_MS;
  const random = options.random ?? Math.random;
  const entries = new LRUCache<string, CachedUser>({ max: maxEntries });
  const createEntry = (identity: UserIdentity & { expiresAt?: number }, now: number) => {
    const entry: CachedUser = {
      user: load(identity),
      userId: undefined,
      expiresAt: Math.min(identity.expiresAt ?? Infinity, now + maxAgeMs),
      refreshAt: now + maxAgeMs * (REFRESH_FROM_SHARE + (1 - REFRESH_FROM_SHARE) * random()),
      isRefreshing: false,
    };
    return entry;
  };
  const refreshInBackground = (
    key: string,
    stale: CachedUser,
    identity: UserIdentity & { expiresAt?: number },
    now: number,
  ): void => {
    stale.isRefreshing = true;
    const fresh = createEntry(identity, now);
    fresh.user.then(
      (user) => {
        fresh.userId = user.id;
        // Dropped meanwhile (forget after a change): the refresh may predate it, so not kept.
        if (entries.peek(key) === stale) entries.set(key, fresh);
      },
      () => {
        stale.isRefreshing = false;
      },
    );
  };
  return {
    resolve: async (identity, now = Date.now()) => {
      const key = `${identity.issuer}\u0000${identity.subject}`;
      const cached = entries.get(key);
      if (cached !== undefined && cached.expiresAt > now) {
        if (now >= cached.refreshAt && !cached.isRefreshing && cached.userId !== undefined) {
          refreshInBackground(key, cached, identity, now);
        }
        return await cached.user;
      }
      const entry = createEntry(identity, now);
      entries.set(key, entry);
      try {
        const user = await entry.user;
        entry.userId = user.id;
        return user;
      } catch (error) {
        if (entries.peek(key) === entry) entries.delete(key);
        throw error;
      }
    },
    forget: (userId) => {
      const dropped = [...entries.entries()].filter(
        ([, entry]) => entry.userId === userId || entry.userId === undefined,
      );
      for (const [key] of dropped) entries.delete(key);
    },
    forgetAll: () => entries.clear(),
    countEntries: () => entries.size,
  };
}

/**
 * Loads user rows by identity: requests that miss the user cache together (many users at
 * once, more than the cache holds) share one statement instead of a round trip each.
 */
export function createBatchedUserLoader(db: Db): (identity: UserIdentity) => Promise<UserRow> {
  return createBatchLoader((identities: readonly UserIdentity[]) =>
    findOrCreateUsersByIdentities(db, identities),
  );
}

/** Tokens whose successful verification is remembered at most (least recently used dropped). */
const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

/**
 * A `VerifyToken` that remembers what each accepted token proved until the token's own
 * `exp`, so a client sending the same token again costs a hash instead of an RSA signature
 * check (a third of a signed-in read's CPU otherwise). Only exact tokens that passed every
 * check are remembered, keyed by their SHA-256 so no bearer token stays in memory; refusals
 * are never remembered, and a token whose verifier names no expiry is checked each time.
 */
export function createVerifiedTokenCache(
  verifyToken: VerifyToken,
  options: { maxEntries?: number; now?: () => number } = {},
): VerifyToken {
  const maxEntries = options.maxEntries ?? VERIFIED_TOKEN_CACHE_SIZE;
  const now = options.now ?? ((): number => Date.now());
  type VerifiedIdentity = Awaited<ReturnType<VerifyToken>>;
  const verified = new LRUCache<string, VerifiedIdentity & { expiresAt: number }>({
    max: maxEntries,
  });
  return async (token) => {
    const key = hash('sha256', token, 'base64url');
    const known = verified.get(key);
    if (known !== undefined) {
      if (known.expiresAt > now()) return known;
      verified.delete(key);
    }
    const identity = await verifyToken(token);
    const { expiresAt } = identity;
    if (expiresAt !== undefined && expiresAt > now()) {
      verified.set(key, { ...identity, expiresAt });
    }
    return identity;
  };
}

// Declaration merging needs interfaces: these extend Fastify's own.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: resolves the bearer token's user or answers 401 before any validation. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    authenticatedUser: UserRow | null;
    /** The signed-in user; only valid behind the `authenticate` hook. */
    requireUser: () => UserRow;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

/**
 * Adds the `authenticate` hook: bearer token → verified identity (remembered per token until
 * it expires) → user (created on first sight, cached per identity). With `databaseUrl`, a
 * connection of its own LISTENs for user changes of every process (see USER_CHANGE_CHANNEL).
 */
export const authenticatePlugin = fp(
  async (
    app: FastifyInstance,
    options: { db: Db; verifyToken: VerifyToken; databaseUrl?: string },
  ) => {
    const verifyToken = createVerifiedTokenCache(options.verifyToken);
    const users = createUserCache(createBatchedUserLoader(options.db));
    const stopWatching = watchUserChanges((userId) => users.forget(userId));
    const stopListening =
      options.databaseUrl === undefined
        ? undefined
        : await listenToChannel(options.databaseUrl, USER_CHANGE_CHANNEL, {
            onNotification: (userId) => {
              users.forget(userId);
              // A plan change elsewhere pauses or resumes searches: cached lists go too.
              announceSearchChange({ userId });
            },
            onGap: () => users.forgetAll(),
            warn: (message) => app.log.warn(message),
          });
    app.addHook('onClose', async () => {
      stopWatching();
      await stopListening?.();
    });
    app.decorateRequest('authenticatedUser', null);
    app.decorateRequest('requireUser', function requireUser(this: FastifyRequest): UserRow {
      if (this.authenticatedUser === null) {
        throw new AppError(401, ERROR_CODES.unauthenticated, 'Sign in to continue');
      }
      return this.authenticatedUser;
    });
    app.decorate('authenticate', async (request: FastifyRequest) => {
      // Already done for this request (the failure limit checks an over-limit address first).
      if (request.authenticatedUser !== null) return;
      request.authenticatedUser = await resolveUser(request, verifyToken, users);
    });
  },
  { name: 'authenticate' },
);

async function resolveUser(
  request: FastifyRequest,
  verifyToken: VerifyToken,
  users: UserCache,
): Promise<UserRow> {
  const token = extractBearerToken(request.headers.authorization);
  if (token === undefined) {
    throw new AppError(
      401,
      ERROR_CODES.unauthenticated,
      'Sign in to continue (missing bearer token)',
    );
  }
  let identity: Awaited<ReturnType<VerifyToken>>;
  try {
    identity = await verifyToken(token);
  } catch (error) {
    if (error instanceof TokenRejectedError && error.reason === 'keys-unavailable') {
      // The token may be fine; the login provider's keys are out of reach for now.
      request.log.error({ err: error }, 'cannot fetch the login provider keys');
      throw new AppError(
        503,
        ERROR_CODES.loginUnavailable,
        'Sign-in is temporarily unavailable; try again shortly',
      );
    }
    request.log.info({ err: error }, 'rejected access token');
    throw new AppError(
      401,
      ERROR_CODES.unauthenticated,
      'Your session has expired or is not valid; sign in again',
    );
  }
  return await users.resolve(identity);
}
