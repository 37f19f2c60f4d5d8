import { existsSync } from 'node:fs';
import path from 'node:path';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { appConfigSchema, type AppConfig as WebsiteConfig } from '#shared/api/app-config.ts';
import { buildErrorBody, ERROR_CODES } from '#shared/api/errors.ts';
import type { ChannelSettings } from './config/notify-settings.ts';
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from './config/rate-limits.ts';
import { toFastifyTrustProxy, type TrustProxySetting } from './config/trust-proxy.ts';
import type { LoginDirectory } from './accounts/index.ts';
import type { Billing } from './billing/index.ts';
import type { Db } from './db/database.ts';
import type { Logger } from './logging/logger.ts';
import type { ShelfwatchMetrics } from './ops/metrics.ts';
import { createLazyChildLogger } from './logging/lazy-child-logger.ts';
import { QuietRequestLogController, selectHttpLogger } from './logging/request-log.ts';
import { authFailureLimitPlugin } from './http/auth-failure-limit.ts';
import { authenticatePlugin, type VerifyToken } from './http/authenticate.ts';
import { answerClientError, answerFrameworkError, errorsPlugin } from './http/errors.ts';
import { securityHeadersPlugin } from './http/security-headers.ts';
import { createJsonSerializerCompiler } from './http/json-serializer.ts';
import { addressRateLimitPlugin, userRateLimitPlugin } from './http/rate-limits.ts';
import { readLandingPage, sendLandingPage } from './site/landing-page.ts';
import { accountRoutes } from './accounts/account-routes.ts';
import { billingRoutes, billingWebhookRoutes } from './billing/billing-routes.ts';
import { catalogRoutes } from './catalog/catalog-routes.ts';
import { channelsRoutes } from './notify/channels/channel-routes.ts';
import { healthRoutes } from './ops/health-routes.ts';
import { notificationsPublicRoutes, pushSubscriptionRoutes } from './notify/notification-routes.ts';
import { metricsRoutes } from './ops/metrics-routes.ts';
import { searchesRoutes } from './searches/search-routes.ts';
import { watchHistoryRoutes } from './searches/history-routes.ts';
import { watchStatusRoutes } from './watch/status-routes.ts';

/** Everything the HTTP app needs from outside. */
export type AppDependencies = {
  db: Db;
  /**
   * The database's connection string, for a connection that LISTENs for changes other
   * processes make (plan changes); without it they show when caches expire (30 s).
   */
  databaseUrl?: string;
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
  /** Whose X-Forwarded-For names the client (TRUST_PROXY); default: nobody's. */
  trustProxy?: TrustProxySetting;
  /** Overrides of DEFAULT_RATE_LIMITS. */
  rateLimits?: Partial<RateLimitSettings>;
  /** Public origin (for Twilio's signed URLs) and Twilio's auth token for its inbound webhook. */
  notify?: { publicUrl?: string; twilioAuthToken?: string };
  /**
   * Where logins live, for account deletion; default: an embedded provider at the website's
   * login domain (so only its own logins are deleted there).
   */
  login?: LoginDirectory;
  /** Users' own alert channels: target policy, Telegram's API and Apple's store page base. */
  channels?: { settings: ChannelSettings; storePageBaseUrl: string };
  /**
   * Prometheus metrics served at /metrics (bearer `token` when set); none without. The token
   * also opens the operator view of /v2/status.
   */
  metrics?: { registry: ShelfwatchMetrics; token: string | undefined };
  /** Stripe billing (server/billing); none: the billing calls answer 503 billing_not_configured. */
  billing?: Billing | null;
  /** What /v2/status says the watcher asks first and uses as control parts (UPSTREAM_*). */
  watchStatus?: {
    preferredShape?: 'pickup-message' | 'fulfillment-messages';
    controlParts?: ReadonlyMap<string, string>;
  };
};

/** Builds the Fastify app: plugins, then the /v2 routes, then the website. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: selectHttpLogger(deps.logger, deps.logLevel),
    logController: new QuietRequestLogController(),
    childLoggerFactory: createLazyChildLogger,
    trustProxy: toFastifyTrustProxy(deps.trustProxy ?? false),
    bodyLimit: 64 * 1024,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createJsonSerializerCompiler());

  const idpOrigin = new URL(
    deps.website.auth.domain.startsWith('http')
      ? deps.website.auth.domain
      : `https://${deps.website.auth.domain}`,
  ).origin;
  const isHttps = deps.website.apiBaseUrl.startsWith('https:');
  const limits = { ...DEFAULT_RATE_LIMITS, ...deps.rateLimits };
  const billing = deps.billing ?? null;
  app.decorate('billing', billing);
  await app.register(securityHeadersPlugin, {
    // Browsers ignore it over plain http (RFC 6797): sent there, it only misstates the site.
    hsts: isHttps ? undefined : false,
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
        upgradeInsecureRequests: isHttps ? [] : null,
      },
    },
  });
  await app.register(cors, {
    origin: deps.corsOrigins,
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
  });
  await app.register(errorsPlugin);
  await app.register(authenticatePlugin, {
    db: deps.db,
    verifyToken: deps.verifyToken,
    databaseUrl: deps.databaseUrl,
  });

  await app.register(healthRoutes, { db: deps.db });
  app.get('/app-config.json', { schema: { response: { 200: appConfigSchema } } }, async () => ({
    ...deps.website,
    // The website enables checkout from this: it must say what this app really does.
    isBillingConfigured: billing !== null,
    macDownloadUrl: deps.website.macDownloadUrl ?? (await deps.resolveMacDownloadUrl?.()) ?? null,
  }));

  await app.register(
    async (v2) => {
      // Public routes count per address, signed-in ones per user: people behind one address
      // (an office, a mobile carrier) must not share one budget for their own reads.
      await v2.register(async (open) => {
        await open.register(addressRateLimitPlugin, { perMinute: limits.perAddressPerMinute });
        await open.register(catalogRoutes, { db: deps.db });
        await open.register(watchStatusRoutes, {
          db: deps.db,
          operatorToken: deps.metrics?.token,
          ...deps.watchStatus,
        });
        await open.register(notificationsPublicRoutes, { db: deps.db, ...deps.notify });
        await open.register(billingRoutes, {
          checkoutPerMinute: limits.checkoutPerAddressPerMinute,
          billing,
        });
      });
      await v2.register(billingWebhookRoutes, { billing });
      await v2.register(async (signedIn) => {
        // Before the `authenticate` hook: a refused address costs no token check. Only
        // signed-in routes answer 401, so public ones are spared the lookup.
        await signedIn.register(authFailureLimitPlugin, {
          perMinute: limits.authFailuresPerAddressPerMinute,
        });
        signedIn.addHook('onRequest', signedIn.authenticate);
        await signedIn.register(userRateLimitPlugin, {
          perMinute: limits.perUserPerMinute,
          writesPerMinute: limits.userWritesPerMinute,
        });
        // Answers about one person must not be kept by the browser or a shared cache.
        signedIn.addHook('onSend', async (_request, reply, payload) => {
          void reply.header('cache-control', 'no-store');
          return payload;
        });
        await signedIn.register(accountRoutes, {
          db: deps.db,
          login: deps.login ?? { kind: 'embedded', issuer: `${idpOrigin}/` },
          billing,
        });
        await signedIn.register(searchesRoutes, { db: deps.db });
        await signedIn.register(watchHistoryRoutes, { db: deps.db });
        await signedIn.register(pushSubscriptionRoutes, { db: deps.db });
        await signedIn.register(channelsRoutes, {
          db: deps.db,
          publicUrl: deps.notify?.publicUrl ?? deps.website.apiBaseUrl,
          storePageBaseUrl: deps.channels?.storePageBaseUrl ?? 'https://www.apple.com/retail/',
          testLimits: {
            perChannelPerMinute: limits.channelTestsPerChannelPerMinute,
            perUserPerHour: limits.channelTestsPerUserPerHour,
          },
          ...(deps.channels === undefined ? {} : { settings: deps.channels.settings }),
        });
      });
    },
    { prefix: '/v2' },
  );

  if (deps.metrics !== undefined) {
    await app.register(metricsRoutes, {
      metrics: deps.metrics.registry,
      token: deps.metrics.token,
    });
  }
  registerWebsite(app, deps.staticDir, deps.website);
  return app;
}

/** Serves the built SPA, falling back to index.html for its client-side routes. */
function registerWebsite(
  app: FastifyInstance,
  staticDir: string | undefined,
  website: WebsiteConfig,
): void {
  const hasWebsite = staticDir !== undefined && existsSync(path.join(staticDir, 'index.html'));
  // `/` is the landing page pre-rendered at build time: readable before any script runs.
  const landingPage = hasWebsite ? readLandingPage(staticDir, website) : undefined;
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
    if (isPageRequest && landingPage !== undefined && request.url.split('?')[0] === '/') {
      return sendLandingPage(request, reply, landingPage);
    }
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
