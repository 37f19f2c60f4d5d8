import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { computeSecurityHeaders, securityHeadersPlugin } from '#server/http/security-headers.ts';

describe('security headers', () => {
  it('are helmet’s headers for the options, including the CSP and no HSTS when turned off', () => {
    const headers = computeSecurityHeaders({
      hsts: false,
      contentSecurityPolicy: {
        directives: { defaultSrc: ["'self'"], frameSrc: ['https://idp.example'] },
      },
    });
    expect(headers['content-security-policy']).toContain('frame-src https://idp.example');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toBeUndefined();
  });

  it('are sent on every answer, 404s included', async () => {
    const app = Fastify();
    await app.register(securityHeadersPlugin, {});
    app.get('/ok', () => ({ ok: true }));
    for (const url of ['/ok', '/missing']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['strict-transport-security']).toContain('max-age=');
    }
    await app.close();
  });

  it('give JSON answers the short API set and pages helmet’s full set', async () => {
    const app = Fastify();
    await app.register(securityHeadersPlugin, {
      hsts: false,
      contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], styleSrc: ["'self'"] } },
    });
    app.get('/json', () => ({ ok: true }));
    app.get('/page', (_request, reply) => reply.type('text/html').send('<p>hi</p>'));
    const json = await app.inject({ method: 'GET', url: '/json' });
    expect(json.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(json.headers['x-dns-prefetch-control']).toBeUndefined();
    expect(json.headers['strict-transport-security']).toBeUndefined();
    const page = await app.inject({ method: 'GET', url: '/page' });
    expect(page.headers['content-security-policy']).toContain("style-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['x-dns-prefetch-control']).toBe('off');
    await app.close();
  });

  it('refuses an option helmet refuses, at start rather than per request', () => {
    expect(() =>
      computeSecurityHeaders({
        contentSecurityPolicy: { directives: { 'default-src': ['none'] } },
      }),
    ).toThrow();
  });
});
