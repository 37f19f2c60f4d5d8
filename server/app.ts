import { existsSync } from 'node:fs';
import path from 'node:path';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { appConfigSchema, type AppConfig as WebsiteConfig } from '#shared/api/app-config.ts';
import { buildErrorBody, ERROR_CODES } from '#shared/api/errors.ts';
import type { Db } from './db/database.ts';
import type { Logger } from './logging/logger.ts';
import { QuietRequestLogController, selectHttpLogger } from './logging/request-log.ts';
import { authenticatePlugin, type VerifyToken } from './plugins/authenticate.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { accountRoutes } from './routes/account.ts';
import { billingRoutes } from './routes/billing.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { healthRoutes } from './routes/health.ts';
import { notificationsPublicRoutes, pushSubscriptionRoutes } from './routes/notifications.ts';
import { searchesRoutes } from './routes/searches.ts';
import { watchHistoryRoutes, watchStatusRoutes } from './routes/watch.ts';

/** Everything the HTTP app needs from outside. */
export type AppDependencies = {
  db: Db;
  verifyToken: VerifyToken;
  website: WebsiteConfig;
  /** Without a fixed download link: the newest .dmg of the macOS update feed, if any. */
  resolveMacDownloadUrl?: () => Promise<string | null>;
  /** Origins allowed to call the API from a browser besides the site itself. */
  corsOrigins: string[];
  /** Built SPA folder; when missing the API still runs and `/` explains how to build. */
  staticDir?: string;
  /** The process's logger; without one, a logger of `logLevel` (default info) is made. */
  logger?: Logger;
  logLevel?: string;
  rateLimitPerMinute?: number;
  /** Public origin (for Twilio's signed URLs) and Twilio's auth token for its inbound webhook. */
  notify?: { publicUrl?: string; twilioAuthToken?: string };
};

/** Builds the Fastify app: plugins, then the /v2 routes, then the website. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: selectHttpLogger(deps.logger, deps.logLevel),
    logController: new QuietRequestLogController(),
    trustProxy: true,
    bodyLimit: 64 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const idpOrigin = new URL(
    deps.website.auth.domain.startsWith('http')
      ? deps.website.auth.domain
      : `https://${deps.website.auth.domain}`,
  ).origin;
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        connectSrc: ["'self'", idpOrigin],
        frameSrc: [idpOrigin],
        imgSrc: ["'self'", 'data:'],
        // react-select and react-bootstrap set inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        // Only meaningful on https; on a plain-http install it would break every request.
        upgradeInsecureRequests: deps.website.apiBaseUrl.startsWith('https:') ? [] : null,
      },
    },
  });
  await app.register(cors, {
    origin: deps.corsOrigins,
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
  });
  await app.register(errorsPlugin);
  await app.register(authenticatePlugin, { db: deps.db, verifyToken: deps.verifyToken });

  await app.register(healthRoutes, { db: deps.db });
  app.get('/app-config.json', { schema: { response: { 200: appConfigSchema } } }, async () => ({
    ...deps.website,
    macDownloadUrl: deps.website.macDownloadUrl ?? (await deps.resolveMacDownloadUrl?.()) ?? null,
  }));

  await app.register(
    async (v2) => {
      await v2.register(rateLimit, {
        max: deps.rateLimitPerMinute ?? 300,
        timeWindow: '1 minute',
        errorResponseBuilder: (_request, context) => ({
          statusCode: 429,
          code: ERROR_CODES.rateLimited,
          message: `Too many requests; try again in ${Math.ceil(context.ttl / 1000)} s`,
        }),
      });
      await v2.register(catalogRoutes, { db: deps.db });
      await v2.register(watchStatusRoutes, { db: deps.db });
      await v2.register(notificationsPublicRoutes, { db: deps.db, ...deps.notify });
      await v2.register(async (signedIn) => {
        signedIn.addHook('onRequest', signedIn.authenticate);
        await signedIn.register(accountRoutes, { db: deps.db });
        await signedIn.register(searchesRoutes, { db: deps.db });
        await signedIn.register(watchHistoryRoutes, { db: deps.db });
        await signedIn.register(pushSubscriptionRoutes, { db: deps.db });
      });
      await v2.register(billingRoutes);
    },
    { prefix: '/v2' },
  );

  registerWebsite(app, deps.staticDir);
  return app;
}

/** Serves the built SPA, falling back to index.html for its client-side routes. */
function registerWebsite(app: FastifyInstance, staticDir: string | undefined): void {
  const hasWebsite = staticDir !== undefined && existsSync(path.join(staticDir, 'index.html'));
  if (hasWebsite) {
    void app.register(fastifyStatic, {
      root: staticDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset; hashed names never change content.
      preCompressed: true,
      setHeaders: (response, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          response.header('cache-control', 'public, max-age=31536000, immutable');
        } else if (path.basename(filePath) === 'sw.js') {
          // Browsers must see a new service worker as soon as it is deployed.
          response.header('cache-control', 'no-cache');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPageRequest =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/v2/') &&
      !path.extname(request.url.split('?')[0]);
    if (isPageRequest && hasWebsite) {
      return reply.code(200).type('text/html').sendFile('index.html', { maxAge: 0 });
    }
    if (isPageRequest) {
      return reply.type('text/plain').send('The website is not built yet: run `npm run build`.');
    }
    return reply
      .code(404)
      .send(
        buildErrorBody(
          ERROR_CODES.notFound,
          `No route ${request.method} ${request.url.split('?')[0]}`,
        ),
      );
  });
}
