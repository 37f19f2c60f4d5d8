import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fillPrerenderedPage, type PrerenderSettings } from '#shared/domain/prerendered-page.ts';

const compressGzip = promisify(gzip);
const compressBrotli = promisify(brotliCompress);

/**
 * The landing page the website build pre-rendered, with this install's settings filled in, and
 * its compressed forms: they are made on zlib's worker threads while the server starts (brotli
 * at quality 11 is about 50 ms of CPU), so a request before they are done waits for them.
 */
export type LandingPage = { html: string; gzip: Promise<Buffer>; brotli: Promise<Buffer> };

/**
 * Reads dist/renderer/landing.html (written by the build, see vite-prerender.ts) once, fills
 * in the settings and starts compressing it; undefined when the build has none (the SPA's
 * index.html then serves `/` as every other page).
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
  const page = {
    html,
    gzip: compressGzip(html, { level: 9 }),
    brotli: compressBrotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  };
  // A failure shows as a 500 on the request that awaits it, not as an unhandled rejection.
  page.gzip.catch(() => undefined);
  page.brotli.catch(() => undefined);
  return page;
}

/** Sends the landing page, compressed as the browser accepts; never cached stale. */
export async function sendLandingPage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: LandingPage,
): Promise<FastifyReply> {
  const accepted = request.headers['accept-encoding'] ?? '';
  void reply
    .code(200)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'Accept-Encoding');
  if (/\bbr\b/.test(accepted))
    return reply.header('content-encoding', 'br').send(await page.brotli);
  if (/\bgzip\b/.test(accepted))
    return reply.header('content-encoding', 'gzip').send(await page.gzip);
  return reply.send(page.html);
}
