import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { watchStatusSchema } from '#shared/api/watch.ts';
import { readCatalogSyncStatus } from '#server/catalog/catalog-status.ts';
import { readDirectorySyncStatus } from '#server/catalog/directory-status.ts';
import type { Db } from '#server/db/database.ts';
import { hasMetricsToken } from '#server/ops/metrics-token.ts';
import { computeWatchStatus, toPublicWatchStatus } from './watch-status.ts';

/** Adds Authorization to the reply's Vary, keeping what CORS put there. */
function varyOnAuthorization(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  void reply.header(
    'vary',
    vary === undefined ? 'Authorization' : `${String(vary)}, Authorization`,
  );
}

/**
 * GET /v2/status: whether alerts may be delayed, each country's endpoint shape and freshness,
 * the last catalog and store directory syncs, for anyone; with `operatorToken` (METRICS_TOKEN) as a bearer token also the upstream hosts,
 * egress addresses, budgets and cool-downs. Any other Authorization (a signed-in person's own
 * token) gets the public view: there is no operator role besides that token.
 */
export const watchStatusRoutes: FastifyPluginAsyncZod<{
  db: Db;
  preferredShape?: 'pickup-message' | 'fulfillment-messages';
  /** UPSTREAM_CONTROL_PARTS, so the page shows the control part the planner uses. */
  controlParts?: ReadonlyMap<string, string>;
  /** Opens the operator view; without one, everyone gets the public view. */
  operatorToken?: string;
}> = async (app, { db, preferredShape, controlParts, operatorToken }) => {
  app.get(
    '/status',
    { schema: { response: { 200: watchStatusSchema } } },
    async (request, reply) => {
      const status = {
        ...(await computeWatchStatus(db, { preferredShape, controlParts })),
        catalog_sync: await readCatalogSyncStatus(db),
        directory_sync: await readDirectorySyncStatus(db),
      };
      // The answer depends on the header: no cache may hand the operator's view to anyone.
      varyOnAuthorization(reply);
      if (
        operatorToken !== undefined &&
        hasMetricsToken(request.headers.authorization, operatorToken)
      ) {
        void reply.header('cache-control', 'private, no-store');
        return status;
      }
      return toPublicWatchStatus(status);
    },
  );
};
