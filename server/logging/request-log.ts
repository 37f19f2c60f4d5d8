import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { createLogger, type Logger } from './logger.ts';

/** The HTTP app's logger: a child of the process's logger, or a new one of `level` (default info). */
export function selectHttpLogger(logger: Logger | undefined, level?: string): FastifyBaseLogger {
  return (logger ?? createLogger({ level: level ?? 'info' })).child({ component: 'http' });
}

// The levels at which a completed request's debug line is written.
const DEBUG_LEVELS = new Set(['debug', 'trace']);

/**
 * Fastify's per-request lines, moved down a level: every page load fetches a dozen files,
 * so at info they drowned everything else. A completed request is one debug line
 * (`GET /v2/products 200 in 4 ms`); a 5xx or a failed response is still an error line.
 */
export class QuietRequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.trace({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const isFailure = (error !== null && error !== undefined) || reply.statusCode >= 500;
    // The common case at the shipped level: a success nobody logs, so build no line for it.
    if (!isFailure && !DEBUG_LEVELS.has(reply.log.level)) return;
    const fields = { res: reply, responseTime: reply.elapsedTime };
    const line = `${request.method} ${request.url} ${reply.statusCode} in ${Math.round(reply.elapsedTime)} ms`;
    if (error !== null && error !== undefined) {
      reply.log.error({ ...fields, err: error }, `${line}, response failed`);
    } else if (reply.statusCode >= 500) {
      reply.log.error(fields, line);
    } else {
      reply.log.debug(fields, line);
    }
  }

  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug(`Route ${request.method}:${request.url} not found`);
  }
}
