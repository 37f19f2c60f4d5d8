import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fillPrerenderedPage, type PrerenderSettings } from '#shared/domain/prerendered-page.ts';

/** The landing page the website build pre-rendered, with this install's settings filled in. */
export type LandingPage = { html: string; gzip: Buffer; brotli: Buffer };

/**
 * Reads dist/renderer/landing.html (written by the build, see vite-prerender.ts) once, fills
 * in the settings and compresses it; undefined when the build has none (the SPA's index.html
 * then serves `/` as every other page).
 */
export function readLandingPage(
  staticDir: string,
  settings: PrerenderSettings,
): LandingPage | undefined {
  let template: string;
  try {
    template = readFileSync(path.join(staticDir, 'landing.html'), 'utf8');
  } catch {
    return undefined;
  }
  const html = fillPrerenderedPage(template, settings);
  return {
    html,
    gzip: gzipSync(html, { level: 9 }),
    brotli: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  };
}

/** Sends the landing page, compressed as the browser accepts; never cached stale. */
export function sendLandingPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: LandingPage,
): FastifyReply {
  const accepted = request.headers['accept-encoding'] ?? '';
  void reply
    .code(200)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'Accept-Encoding');
  if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(page.brotli);
  if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(page.gzip);
  return reply.send(page.html);
}
