import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '#shared/api/errors.ts';
import { searchParamsSchema } from '#shared/api/searches.ts';
import {
  searchHistoryQuerySchema,
  searchHistorySchema,
  watchStatusSchema,
} from '#shared/api/watch.ts';
import type { Db } from '#server/db/database.ts';
import { readCatalogSyncStatus } from '#server/catalog/catalog-status.ts';
import { notFound } from '#server/services/app-error.ts';
import { readSearchHistory } from '#server/watch/reads.ts';
import { computeWatchStatus } from '#server/watch/watch-status.ts';
import { checkSearchAccess } from './searches.ts';

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

/** GET /v2/status (public): upstream health and whether alerts may be delayed. */
export const watchStatusRoutes: FastifyPluginAsyncZod<{
  db: Db;
  preferredShape?: 'pickup-message' | 'fulfillment-messages';
  /** UPSTREAM_CONTROL_PARTS, so the page shows the control part the planner uses. */
  controlParts?: ReadonlyMap<string, string>;
}> = async (app, { db, preferredShape, controlParts }) => {
  app.get('/status', { schema: { response: { 200: watchStatusSchema } } }, async () => ({
    ...(await computeWatchStatus(db, { preferredShape, controlParts })),
    catalog_sync: await readCatalogSyncStatus(db),
  }));
};
