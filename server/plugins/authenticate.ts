import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_REASONS } from '#shared/api/errors.ts';
import type { Db } from '#server/db/database.ts';
import { findOrCreateUserByIdentity } from '#server/db/repositories/users-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { AppError } from '#server/services/app-error.ts';

/** Checks a bearer token and says whose it is; throws when it is not acceptable. */
export type VerifyToken = (token: string) => Promise<{ issuer: string; subject: string; email?: string }>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user (created on first sight), or a 401. */
    requireUser: () => Promise<UserRow>;
  }
}

/** Adds `request.requireUser()`: bearer token → verified identity → user row. */
export const authenticatePlugin = fp(
  (app: FastifyInstance, options: { db: Db; verifyToken: VerifyToken }) => {
    app.decorateRequest('requireUser', function requireUser(this: FastifyRequest): Promise<UserRow> {
      return resolveUser(this, options);
    });
  },
  { name: 'authenticate' },
);

async function resolveUser(request: FastifyRequest, options: { db: Db; verifyToken: VerifyToken }): Promise<UserRow> {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (match === null) {
    throw new AppError(401, ERROR_REASONS.unauthenticated, 'Sign in to continue (missing bearer token)');
  }
  let identity: Awaited<ReturnType<VerifyToken>>;
  try {
    identity = await options.verifyToken(match[1]);
  } catch (error) {
    request.log.info({ err: error }, 'rejected access token');
    throw new AppError(401, ERROR_REASONS.unauthenticated, 'Your session has expired or is not valid; sign in again');
  }
  return await findOrCreateUserByIdentity(options.db, identity);
}
