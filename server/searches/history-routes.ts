import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/api/errors.ts';
import { searchParamsSchema } from '#shared/api/searches.ts';
import { searchHistoryQuerySchema, searchHistorySchema } from '#shared/api/watch.ts';
import type { Db } from '#server/db/database.ts';
import { notFound } from '#server/base/app-error.ts';
import { readSearchHistory } from '#server/watch/search-reads.ts';
import { checkSearchAccess } from './search-routes.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

/**
 * GET /v2/searches/{id}/history (signed in, paid plans): restock events and daily counts for
 * the search.
 */
export const watchHistoryRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addHook('preValidation', checkSearchAccess);

  app.get(
    '/searches/:id/history',
    {
      schema: {
        params: searchParamsSchema,
        querystring: searchHistoryQuerySchema,
        response: { 200: searchHistorySchema, ...errors },
      },
    },
    async (request) => {
      const history = await readSearchHistory(db, {
        userId: request.requireUser().id,
        searchId: request.params.id,
        days: request.query.days,
      });
      if (history === undefined) {
        throw notFound('Search');
      }
      return history;
    },
  );
};
