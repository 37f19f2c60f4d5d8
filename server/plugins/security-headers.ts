import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets for `options`, worked out once. @fastify/helmet rebuilds helmet's
 * middleware (and re-parses the CSP) on every request, about a sixth of a cheap route's CPU;
 * these options never vary by request, so the answer is the same every time.
 */
export function computeSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  // helmet's middleware is synchronous with these options; `next` reports a bad option.
  helmet(options)(
    {} as Parameters<ReturnType<typeof helmet>>[0],
    response as unknown as Parameters<ReturnType<typeof helmet>>[1],
    (error?: unknown) => {
      failure = error;
    },
  );
  if (failure !== undefined) {
    throw failure instanceof Error ? failure : new Error('helmet refused its options');
  }
  return headers;
}

/** Sends helmet's security headers, computed once, on every answer of the app. */
export const securityHeadersPlugin = fp(
  (app: FastifyInstance, options: HelmetOptions) => {
    const headers = computeSecurityHeaders(options);
    app.addHook('onRequest', (_request, reply, done) => {
      void reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
