import { readFile as readFileFromDisk } from 'node:fs/promises';
import path from 'node:path';
import type { CustomScheme } from 'electron';

// The window loads the renderer from app://shelfwatch/, never file:// (every file on the disk
// would share one origin) or a dev server. This module is the handler Electron's
// `protocol.handle` calls: a plain Fetch-API function, so it runs and is tested in Node.

/** The app's own URL scheme. */
export const APP_SCHEME = 'app';
/** The app's host name inside that scheme. */
export const APP_HOST = 'shelfwatch';
/** Origin of every page of the app window. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * Registration of app:// before the app is ready: standard (real origin, relative URLs),
 * secure (like https, so secure-context APIs work) and fetch() allowed for the renderer's own
 * files. Everything is same-origin, so no CORS is needed.
 */
export const APP_PRIVILEGED_SCHEME: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
};

/** Path the renderer fetches its configuration from at boot. */
const APP_CONFIG_PATH = '/app-config.json';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};

/** True for a URL of the app's own pages and files (app://shelfwatch/...). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * The Content-Security-Policy of every answer: only the app's own scripts, no plugins, no
 * frames, no forms; network only to the app itself and the given http(s) origins. Inline
 * styles stay allowed because react-bootstrap and uPlot set style attributes.
 */
export function buildContentSecurityPolicy(options: { connectSources: string[] }): string {
  const connect = ["'self'", ...options.connectSources.map(toHttpOrigin)];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Options of the app:// handler. */
export type AppProtocolOptions = {
  /** The built renderer (Vite's output folder). */
  rendererDir: string;
  /** Answered as /app-config.json; the renderer checks its shape at boot. */
  appConfig: unknown;
  /** Origins the renderer may connect to besides itself (the Shelfwatch API). */
  connectSources: string[];
  /** Reads a file; injected by tests. */
  readFile?: (filePath: string) => Promise<Uint8Array>;
};

/** Builds the app:// request handler for `protocol.handle`. */
export function createAppProtocolHandler(
  options: AppProtocolOptions,
): (request: Request) => Promise<Response> {
  const root = path.resolve(options.rendererDir);
  const readFile = options.readFile ?? readFileFromDisk;
  const securityHeaders = {
    'Content-Security-Policy': buildContentSecurityPolicy(options),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
  const configBody = JSON.stringify(options.appConfig ?? null);

  const answer = (
    request: Request,
    status: number,
    body: Uint8Array | string,
    headers: Record<string, string>,
  ): Response =>
    new Response(request.method === 'HEAD' ? null : toBody(body), {
      status,
      headers: { ...securityHeaders, ...headers },
    });
  const answerText = (request: Request, status: number, text: string, extra = {}): Response =>
    answer(request, status, text, { 'Content-Type': 'text/plain; charset=utf-8', ...extra });

  /** Reads a file inside the renderer folder; null when there is none. */
  const readRendererFile = async (filePath: string): Promise<Uint8Array | null> => {
    try {
      return await readFile(filePath);
    } catch (error) {
      if (isMissingFileError(error)) return null;
      throw error;
    }
  };

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return answerText(request, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
    }
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return answerText(request, 400, 'Bad request');
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) {
      return answerText(request, 403, 'Forbidden');
    }
    const relativePath = resolveRequestPath(url.pathname);
    if (relativePath === null) return answerText(request, 403, 'Forbidden');
    if (`/${relativePath}` === APP_CONFIG_PATH) {
      return answer(request, 200, configBody, {
        'Content-Type': CONTENT_TYPES['.json'],
        'Cache-Control': 'no-store',
      });
    }
    const filePath = path.join(root, relativePath === '' ? 'index.html' : relativePath);
    if (!isInside(root, filePath)) return answerText(request, 403, 'Forbidden');
    try {
      const extension = path.extname(filePath).toLowerCase();
      const bytes = await readRendererFile(filePath);
      if (bytes !== null) {
        return answer(request, 200, bytes, {
          'Content-Type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
        });
      }
      // Client-side routes (/search/<id>, /settings) have no file: the SPA answers them.
      if (extension === '') {
        const index = await readRendererFile(path.join(root, 'index.html'));
        if (index !== null) {
          return answer(request, 200, index, { 'Content-Type': CONTENT_TYPES['.html'] });
        }
      }
      return answerText(request, 404, 'Not found');
    } catch {
      return answerText(request, 500, 'Could not read the file');
    }
  };
}

/**
 * The request path relative to the renderer folder ('' for the root), decoded; null when it
 * could point outside the folder (`..` in any spelling, backslashes, NUL) or is malformed.
 */
function resolveRequestPath(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.some((segment) => segment === '..')) return null;
  return segments.join('/');
}

/** True when `candidate` is `root` or below it. */
function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function isMissingFileError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR';
}

/** Normalises a connect source to its origin; a non-http(s) source is a programming error. */
function toHttpOrigin(source: string): string {
  const url = new URL(source);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`connect-src must be an http(s) origin, got ${source}`);
  }
  return url.origin;
}

/** Response bodies want an ArrayBuffer-backed view; fs hands out Buffers of a shared pool. */
function toBody(body: Uint8Array | string): Uint8Array<ArrayBuffer> | string {
  if (typeof body === 'string') return body;
  const copy = new Uint8Array(body.byteLength);
  copy.set(body);
  return copy;
}
