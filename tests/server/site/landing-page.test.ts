import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRERENDER_MARKERS } from '#shared/domain/prerendered-page.ts';
import { readLandingPage, sendLandingPage } from '#server/site/landing-page.ts';

const SETTINGS = {
  supportEmail: 'help@example.test',
  supportEndDate: '2030-01-31',
  maker: { name: 'Example & Co', url: 'https://example.test/' },
};

describe('the pre-rendered landing page', () => {
  let dir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'landing-page-'));
    // Long enough that compression matters; the markers are filled in before compressing.
    const body = '<p>Stop waiting weeks for Apple products to ship.</p>\n'.repeat(400);
    await writeFile(
      path.join(dir, 'landing.html'),
      `<html><body>${body}<a href="mailto:${PRERENDER_MARKERS.supportEmail}">${PRERENDER_MARKERS.makerName}</a></body></html>`,
    );
    const page = readLandingPage(dir, SETTINGS);
    if (page === undefined) throw new Error('landing.html was not read');
    app = Fastify();
    app.get('/', (request, reply) => sendLandingPage(request, reply, page));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the same filled-in page as brotli, gzip or plain, as the browser accepts', async () => {
    const brotli = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    const gzip = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    const plain = await app.inject({ url: '/', headers: { 'accept-encoding': 'identity' } });
    expect([brotli.headers['content-encoding'], gzip.headers['content-encoding']]).toEqual([
      'br',
      'gzip',
    ]);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const html = plain.body;
    expect(html).toContain('mailto:help@example.test');
    expect(html).toContain('Example &amp; Co');
    expect(brotliDecompressSync(brotli.rawPayload).toString('utf8')).toBe(html);
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(html);
    expect(brotli.rawPayload.length).toBeLessThan(html.length / 10);
    for (const answer of [brotli, gzip, plain]) {
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers.vary).toBe('Accept-Encoding');
    }
  });

  it('is undefined when the build wrote no landing page', () => {
    expect(readLandingPage(path.join(dir, 'missing'), SETTINGS)).toBeUndefined();
  });
});
