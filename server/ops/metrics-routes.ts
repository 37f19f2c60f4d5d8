import type { FastifyInstance } from 'fastify';
import { buildErrorBody, ERROR_CODES } from '#shared/api/errors.ts';
import type { ShelfwatchMetrics } from './metrics.ts';
import { hasMetricsToken } from './metrics-token.ts';

/**
 * GET /metrics in Prometheus's text format; with a token, only for a scraper that sends it
 * (the stack always has one: METRICS_TOKEN or the data folder's). Registered on the API app
 * and on a worker's own small server.
 */
export async function metricsRoutes(
  app: FastifyInstance,
  options: { metrics: ShelfwatchMetrics; token: string | undefined },
): Promise<void> {
  app.get('/metrics', async (request, reply) => {
    if (
      options.token !== undefined &&
      !hasMetricsToken(request.headers.authorization, options.token)
    ) {
      return reply
        .code(401)
        .send(
          buildErrorBody(
            ERROR_CODES.unauthenticated,
            "This scrape needs METRICS_TOKEN (or the data folder's metrics-token) as a bearer token",
          ),
        );
    }
    const body = await options.metrics.registry.metrics();
    return reply
      .header('cache-control', 'no-store')
      .type(options.metrics.registry.contentType)
      .send(body);
  });
}
