import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';

// The brand's one icon file: the website links it from renderer/index.html too.
const ICON_FILE = new URL('../../assets/brand-icon.svg', import.meta.url);

/** Where the provider's pages link their icon. */
export const FAVICON_PATH = '/favicon.svg';

/**
 * Serves the site's icon on the provider's own origin, at the linked path and at
 * /favicon.ico, which browsers still ask for on pages that link no icon (oidc-provider's).
 */
export async function registerFaviconRoutes(app: FastifyInstance): Promise<void> {
  const icon = await readFile(ICON_FILE);
  for (const path of [FAVICON_PATH, '/favicon.ico']) {
    app.get(path, (_request, reply) =>
      reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(icon),
    );
  }
}
