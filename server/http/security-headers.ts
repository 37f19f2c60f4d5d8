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

/**
 * The headers of JSON answers: the set OWASP's REST Security Cheat Sheet names for APIs. A
 * JSON body is never rendered as a page, so the document-only headers (script and style
 * sources, DNS prefetch, download options) protect nothing there, while their 600 bytes were
 * written, and validated, on every answer of the busiest routes.
 */
export function computeApiSecurityHeaders(
  pageHeaders: Record<string, string>,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': pageHeaders['cross-origin-resource-policy'] ?? 'same-origin',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
  const hsts = pageHeaders['strict-transport-security'];
  if (hsts !== undefined) {
    headers['strict-transport-security'] = hsts;
  }
  return headers;
}

/**
 * Sends helmet's security headers, computed once, on every answer of the app: JSON answers
 * get the smaller set of computeApiSecurityHeaders, everything else (pages, the login
 * provider's forms, files) helmet's full set. Decided when the answer is sent, by its type,
 * since HTML pages (the unsubscribe page) live under /v2 too.
 */
export const securityHeadersPlugin = fp(
  (app: FastifyInstance, options: HelmetOptions) => {
    const pageHeaders = computeSecurityHeaders(options);
    const apiHeaders = computeApiSecurityHeaders(pageHeaders);
    app.addHook('onSend', (_request, reply, payload, done) => {
      const type = reply.getHeader('content-type');
      const isJson = typeof type === 'string' && type.startsWith('application/json');
      void reply.headers(isJson ? apiHeaders : pageHeaders);
      done(null, payload);
    });
  },
  { name: 'security-headers' },
);
