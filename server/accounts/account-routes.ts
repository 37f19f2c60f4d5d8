import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountDeletionSchema,
  accountSchema,
  accountUpdateSchema,
  quietHoursSchema,
  timeZoneUpdateSchema,
} from '#shared/api/account.ts';
import { errorBodySchema } from '#shared/api/errors.ts';
import { deleteOwnAccount, type LoginDirectory } from './index.ts';
import type { Db } from '#server/db/database.ts';
import type { UserRow } from '#server/db/schema.ts';
import { saveAccount, saveQuietHours, saveTimeZone, toAccount } from './account-service.ts';

/** GET, PATCH and DELETE /v2/account; PATCH /v2/account/quiet-hours and /time-zone. */
export const accountRoutes: FastifyPluginAsyncZod<{
  db: Db;
  login: LoginDirectory;
  /**
   * Stripe billing when configured: deletion cancels the subscription first. Only what deletion
   * needs, so accounts stay below billing (which changes plans through accounts).
   */
  billing: { cancelSubscriptions: (user: UserRow) => Promise<void> } | null;
}> = async (app, { db, login, billing }) => {
  app.get(
    '/account',
    { schema: { response: { 200: accountSchema, 401: errorBodySchema } } },
    async (request) => toAccount(request.requireUser()),
  );

  app.patch(
    '/account',
    {
      schema: {
        body: accountUpdateSchema,
        response: { 200: accountSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => await saveAccount(db, request.requireUser(), request.body),
  );

  app.patch(
    '/account/quiet-hours',
    {
      schema: {
        body: quietHoursSchema,
        response: { 200: accountSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => await saveQuietHours(db, request.requireUser(), request.body),
  );

  app.patch(
    '/account/time-zone',
    {
      schema: {
        body: timeZoneUpdateSchema,
        response: { 200: accountSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => await saveTimeZone(db, request.requireUser(), request.body.time_zone),
  );

  app.delete(
    '/account',
    {
      schema: {
        response: { 204: accountDeletionSchema, 401: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request, reply) => {
      await deleteOwnAccount(db, request.requireUser(), {
        login,
        cancelSubscriptions:
          billing === null ? undefined : (user) => billing.cancelSubscriptions(user),
      });
      return reply.code(204).send(null);
    },
  );
};
