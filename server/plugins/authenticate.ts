import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '#shared/api/errors.ts';
import type { Db } from '#server/db/database.ts';
import { findOrCreateUserByIdentity } from '#server/db/repositories/users-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { extractBearerToken, TokenRejectedError } from '#server/plugins/auth/index.ts';
import { AppError } from '#server/services/app-error.ts';

/** Checks a bearer token and says whose it is; throws when it is not acceptable. */
export type VerifyToken = (
  token: string,
) => Promise<{ issuer: string; subject: string; email?: string }>;

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

/** Adds the `authenticate` hook: bearer token → verified identity → user (created on first sight). */
export const authenticatePlugin = fp(
  (app: FastifyInstance, options: { db: Db; verifyToken: VerifyToken }) => {
    app.decorateRequest('authenticatedUser', null);
    app.decorateRequest('requireUser', function requireUser(this: FastifyRequest): UserRow {
      if (this.authenticatedUser === null) {
        throw new AppError(401, ERROR_CODES.unauthenticated, 'Sign in to continue');
      }
      return this.authenticatedUser;
    });
    app.decorate('authenticate', async (request: FastifyRequest) => {
      request.authenticatedUser = await resolveUser(request, options);
    });
  },
  { name: 'authenticate' },
);

async function resolveUser(
  request: FastifyRequest,
  options: { db: Db; verifyToken: VerifyToken },
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
    identity = await options.verifyToken(token);
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
  return await findOrCreateUserByIdentity(options.db, identity);
}
