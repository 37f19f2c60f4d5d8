import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { computeSecurityHeaders, securityHeadersPlugin } from '#server/plugins/security-headers.ts';

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
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['strict-transport-security']).toContain('max-age=');
    }
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
