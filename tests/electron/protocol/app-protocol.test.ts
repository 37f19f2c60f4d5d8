import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ORIGIN,
  APP_PRIVILEGED_SCHEME,
  buildContentSecurityPolicy,
  createAppProtocolHandler,
  isAppUrl,
} from '#electron/protocol/app-protocol.ts';

const INDEX_HTML = '<!doctype html><title>Shelfwatch</title>';
const appConfig = { apiBaseUrl: 'https://shelfwatch.app', cookiePrefix: 'shelfwatch_' };
let baseDir: string;
let rendererDir: string;
let serve: (request: Request) => Promise<Response>;

beforeAll(async () => {
  baseDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-protocol-'));
  rendererDir = path.join(baseDir, 'renderer');
  await mkdir(path.join(rendererDir, 'assets'), { recursive: true });
  await mkdir(path.join(rendererDir, 'content'), { recursive: true });
  await writeFile(path.join(rendererDir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(rendererDir, 'assets', 'index-abc123.js'), 'console.log(1);');
  await writeFile(path.join(rendererDir, 'assets', 'index-abc123.css'), 'body{}');
  await writeFile(path.join(rendererDir, 'assets', 'hero.svg'), '<svg/>');
  await writeFile(path.join(rendererDir, 'content', 'terms.md'), '# Terms');
  // A secret beside the renderer folder that traversal must not reach.
  await writeFile(path.join(baseDir, 'secret.txt'), 'token=abc');
  serve = createAppProtocolHandler({
    rendererDir,
    appConfig,
    connectSources: ['https://shelfwatch.app/v2'],
  });
});

afterAll(async () => {
  await rm(baseDir, { recursive: true, force: true });
});

async function fetchApp(pathAndQuery: string, init?: RequestInit) {
  const response = await serve(new Request(`${APP_ORIGIN}${pathAndQuery}`, init));
  return { response, text: await response.text() };
}

describe('app:// protocol handler', () => {
  it('serves the renderer files with their content types', async () => {
    const cases = [
      ['/', 'text/html; charset=utf-8', INDEX_HTML],
      ['/index.html', 'text/html; charset=utf-8', INDEX_HTML],
      ['/assets/index-abc123.js', 'text/javascript; charset=utf-8', 'console.log(1);'],
      ['/assets/index-abc123.css', 'text/css; charset=utf-8', 'body{}'],
      ['/assets/hero.svg', 'image/svg+xml', '<svg/>'],
      ['/content/terms.md', 'text/markdown; charset=utf-8', '# Terms'],
      ['/assets/index-abc123.js?v=2#x', 'text/javascript; charset=utf-8', 'console.log(1);'],
    ] as const;
    for (const [requestPath, contentType, body] of cases) {
      const { response, text } = await fetchApp(requestPath);
      expect(response.status, requestPath).toBe(200);
      expect(response.headers.get('content-type'), requestPath).toBe(contentType);
      expect(text, requestPath).toBe(body);
    }
  });

  it('answers /app-config.json from the given object', async () => {
    const { response, text } = await fetchApp('/app-config.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(JSON.parse(text)).toEqual(appConfig);
  });

  it('falls back to index.html for client-side routes and 404s missing files', async () => {
    for (const route of ['/settings', '/search/0b8c5d1e-6f4a-4c3b-9d2e-1a2b3c4d5e6f', '/assets']) {
      const { response, text } = await fetchApp(route);
      expect(response.status, route).toBe(200);
      expect(text, route).toBe(INDEX_HTML);
    }
    for (const missing of ['/assets/missing.js', '/content/nothing.md', '/favicon.ico']) {
      const { response } = await fetchApp(missing);
      expect(response.status, missing).toBe(404);
    }
  });

  it('blocks every path that escapes the renderer folder', async () => {
    const attempts = [
      '/%2e%2e/secret.txt',
      '/%2E%2E/secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%5csecret.txt',
      '/assets/..%5c..%5csecret.txt',
      `/${encodeURIComponent(path.join(baseDir, 'secret.txt'))}`,
      '/index.html%00.js',
      '/%E0%A4%A',
    ];
    for (const attempt of attempts) {
      const { response, text } = await fetchApp(attempt);
      expect(response.status, attempt).toBeGreaterThanOrEqual(400);
      expect(text, attempt).not.toContain('token=abc');
    }
    // Plain dot segments are resolved by the URL parser itself and stay inside the folder.
    const { text } = await fetchApp('/../../secret.txt');
    expect(text).not.toContain('token=abc');
  });

  it('refuses other hosts and methods other than GET and HEAD', async () => {
    const otherHost = await serve(new Request('app://evil/index.html'));
    expect(otherHost.status).toBe(403);
    const post = await serve(
      new Request(`${APP_ORIGIN}/index.html`, { method: 'POST', body: 'x' }),
    );
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await serve(new Request(`${APP_ORIGIN}/index.html`, { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('sets the CSP and nosniff on every answer, errors included', async () => {
    const policy = buildContentSecurityPolicy({ connectSources: ['https://shelfwatch.app'] });
    for (const requestPath of ['/', '/app-config.json', '/assets/missing.js', '/%2e%2e/x']) {
      const { response } = await fetchApp(requestPath);
      expect(response.headers.get('content-security-policy'), requestPath).toBe(policy);
      expect(response.headers.get('x-content-type-options'), requestPath).toBe('nosniff');
    }
  });

  it('answers 500 without details when a file cannot be read', async () => {
    const failing = createAppProtocolHandler({
      rendererDir,
      appConfig,
      connectSources: [],
      readFile: () =>
        Promise.reject(Object.assign(new Error('EACCES /secret'), { code: 'EACCES' })),
    });
    const response = await failing(new Request(`${APP_ORIGIN}/index.html`));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('secret');
  });
});

describe('content security policy', () => {
  it('allows only the app itself and the given origins', () => {
    const policy = buildContentSecurityPolicy({
      connectSources: ['https://shelfwatch.app/v2/', 'http://localhost:3000'],
    });
    const directives = Object.fromEntries(
      policy.split('; ').map((directive) => {
        const [name, ...values] = directive.split(' ');
        return [name, values.join(' ')];
      }),
    );
    expect(directives).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data:",
      'font-src': "'self' data:",
      'connect-src': "'self' https://shelfwatch.app http://localhost:3000",
      'object-src': "'none'",
      'base-uri': "'none'",
      'frame-ancestors': "'none'",
      'form-action': "'none'",
    });
  });

  it('refuses a connect source that is not an http(s) origin', () => {
    expect(() => buildContentSecurityPolicy({ connectSources: ['file:///'] })).toThrow();
  });
});

describe('app URLs and scheme', () => {
  it('recognises only app://shelfwatch URLs', () => {
    expect(isAppUrl('app://shelfwatch/')).toBe(true);
    expect(isAppUrl('app://shelfwatch/search/1?x=1')).toBe(true);
    expect(isAppUrl('app://shelfwatch')).toBe(true);
    for (const url of ['app://other/', 'https://shelfwatch/', 'app://shelfwatch.evil/', 'x']) {
      expect(isAppUrl(url), url).toBe(false);
    }
  });

  it('registers app:// as a standard, secure scheme with fetch', () => {
    expect(APP_PRIVILEGED_SCHEME).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true, supportFetchAPI: true },
    });
  });
});
