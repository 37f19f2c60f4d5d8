import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { watchStatusSchema } from '#shared/api/watch.ts';
import { readCatalogSyncStatus } from '#server/catalog/catalog-status.ts';
import type { Db } from '#server/db/database.ts';
import { computeWatchStatus } from './watch-status.ts';

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
