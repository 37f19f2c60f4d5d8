import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildErrorBody, ERROR_CODES } from '#shared/api/errors.ts';
import type { ShelfwatchMetrics } from './metrics.ts';

/** True when the Authorization header carries exactly `Bearer <token>`. */
function hasMetricsToken(header: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * GET /metrics in Prometheus's text format; with a token configured, only for a scraper that
 * sends it. Registered on the API app and on a worker's own small server.
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
            'This scrape needs METRICS_TOKEN as a bearer token',
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
