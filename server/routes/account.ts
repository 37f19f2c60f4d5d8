import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountSchema, accountUpdateSchema } from '#shared/api/account.ts';
import { errorBodySchema } from '#shared/api/errors.ts';
import type { Db } from '#server/db/database.ts';
import { saveAccount, toAccount } from '#server/services/account-service.ts';

/** GET and PATCH /v2/account. */
export const accountRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
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
};
