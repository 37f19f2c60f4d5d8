import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Billing, StripeConnection } from '#server/billing/index.ts';
import type { AppConfig } from '#server/config/app-config.ts';
import type { Db } from '#server/db/database.ts';
import type { Logger } from '#server/logging/logger.ts';
import type { ShelfwatchMetrics } from '#server/ops/metrics.ts';
import type { MetricsToken } from '#server/ops/metrics-token.ts';
import type * as stackModules from './stack-modules.ts';

// The steps of startStack once its database is open. Every import above is a type: what the
// steps run comes in `modules`, which stack.ts loads while PostgreSQL starts (issue 30).

/** Where the built website lives, relative to this file. */
const WEBSITE_DIR = fileURLToPath(new URL('../dist/renderer', import.meta.url));

/** The modules startStack loads while the database opens (stack-modules.ts). */
export type StackModules = typeof stackModules;

/** Records how long each start step took since the previous one, for the debug line. */
export type PhaseClock = { mark: (name: string) => void; describe: () => string };

/** What the start steps share: the open database, the loaded modules and what to stop. */
export type StackWiring = {
  config: AppConfig;
  logger: Logger;
  /** The stack's own lines. */
  log: Logger;
  db: Db;
  connectionString: string;
  modules: StackModules;
  phases: PhaseClock;
  /** Where the Stripe client connects instead of api.stripe.com (tests' stand-in). */
  stripeConnection: StripeConnection | undefined;
  /** Stops what the steps started, last first; a step that fails is logged and skipped. */
  stoppers: (() => Promise<void>)[];
};

/** Brings the database's tables to the latest migration. */
export async function wireMigrations(stack: StackWiring): Promise<void> {
  await stack.modules.migrateToLatest(stack.db);
  stack.phases.mark('migrations');
}

/** Seeds the bundled catalog, then starts the catalog's background services. */
export async function wireCatalog(stack: StackWiring): Promise<void> {
  const { db, connectionString, config, logger, modules, phases } = stack;
  await modules.seedCatalog(db);
  phases.mark('catalog seed');
  stack.stoppers.push(await modules.startCatalogServices({ db, connectionString, config, logger }));
  phases.mark('catalog services');
}

/** Starts the upstream simulator, which answers as Apple would. */
export async function wireSimulator(stack: StackWiring): Promise<void> {
  const { config, log, modules } = stack;
  const simulator = await modules.startUpstreamSimulator({
    port: config.simulator.port,
    seed: config.simulator.seed,
    ...config.simulator.behaviour,
    stores: modules.STORE_SEEDS,
    models: modules.PRODUCT_MODEL_SEEDS,
    countries: modules.COUNTRY_SEEDS,
  });
  stack.stoppers.push(async () => simulator.close());
  stack.phases.mark('simulator');
  log.debug(
    `Upstream simulator on ${simulator.url} (seed ${config.simulator.seed}, state: ${simulator.url}/_sim/state)`,
  );
}

/** Starts the embedded login provider. */
export async function wireIdentityProvider(
  stack: StackWiring,
  idpConfig: Extract<AppConfig['idp'], { kind: 'embedded' }>,
): Promise<void> {
  const { config, logger, modules } = stack;
  const idpLog = logger.child({ component: 'login' });
  const idp = await modules.startIdentityProvider({
    db: stack.db,
    issuer: idpConfig.issuer,
    port: idpConfig.port,
    clientId: idpConfig.clientId,
    apiAudience: config.apiAudience,
    siteOrigins: [new URL(config.publicUrl).origin],
    trustProxy: config.trustProxy,
    loginLimits: config.loginLimits,
    passwordReset: {
      mailer: modules.readAccountSettings(config).mailer,
      supportEmail: config.supportEmail,
    },
    // Its info lines repeat what the start banner says.
    logger: { info: (line) => idpLog.debug(line), warn: (line) => idpLog.warn(line) },
  });
  stack.stoppers.push(async () => idp.close());
  stack.phases.mark('login provider');
}

/** Makes sure the demo account exists, when the embedded provider offers it. */
export async function wireDemoAccount(
  stack: StackWiring,
): Promise<{ email: string; password: string | undefined; isCreated: boolean } | undefined> {
  const { config } = stack;
  const demo =
    config.idp.kind === 'embedded' && config.demo.isEnabled
      ? await stack.modules.ensureDemoAccount(stack.db, {
          issuer: config.idp.issuer,
          password: config.demo.password,
        })
      : undefined;
  stack.phases.mark('demo account');
  return demo;
}

/** The Prometheus metrics the app serves and the workers record, and the token that opens them. */
export type StackMetrics = { registry: ShelfwatchMetrics; token: MetricsToken };

/**
 * Creates the Prometheus metrics, and takes METRICS_TOKEN or, without it, the token kept in the
 * data folder (made on the first start): /metrics is never open by default.
 */
export async function wireMetrics(stack: StackWiring): Promise<StackMetrics> {
  const { config, modules } = stack;
  const token = await modules.resolveMetricsToken({
    configured: config.metrics.token,
    dataDir: config.dataDir,
  });
  stack.phases.mark('metrics token');
  return { registry: modules.createMetrics(stack.db), token };
}

/** Creates Stripe billing when it is configured; null otherwise. */
export async function wireBilling(stack: StackWiring): Promise<Billing | null> {
  const { config, logger } = stack;
  const billingLog = logger.child({ component: 'billing' });
  // Stripe (~80 ms of modules) loads only when billing is configured.
  return config.billing === undefined
    ? null
    : (await import('./billing/index.ts')).createBilling({
        db: stack.db,
        settings: config.billing,
        accounts: stack.modules.readAccountSettings(config),
        connection: stack.stripeConnection,
        log: { info: (line) => billingLog.info(line), warn: (line) => billingLog.warn(line) },
      });
}

/** Builds the website and API and listens on the configured port. */
export async function wireApp(
  stack: StackWiring,
  parts: { metrics: StackMetrics; billing: Billing | null },
): Promise<FastifyInstance> {
  const { config, logger, modules } = stack;
  const app = await modules.buildApp({
    db: stack.db,
    databaseUrl: stack.connectionString,
    watchStatus: {
      preferredShape: config.upstream.shape,
      controlParts: config.upstream.controlParts,
    },
    verifyToken: createStackTokenVerifier(stack),
    website: {
      auth: {
        domain: config.idp.issuer.replace(/\/$/, ''),
        clientId: config.idp.clientId,
        audience: config.apiAudience,
      },
      apiBaseUrl: config.publicUrl,
      supportEmail: config.supportEmail,
      supportEndDate: config.supportEndDate,
      maker: config.maker,
      isBillingConfigured: parts.billing !== null,
      macDownloadUrl: config.macDownloadUrl,
      cookiePrefix: 'shelfwatch_',
    },
    resolveMacDownloadUrl: createMacDownloadResolver(stack),
    corsOrigins: [new URL(config.publicUrl).origin, 'app://shelfwatch'],
    staticDir: WEBSITE_DIR,
    logger,
    trustProxy: config.trustProxy,
    rateLimits: config.rateLimits,
    notify: { publicUrl: config.publicUrl, twilioAuthToken: config.notify.twilioAuthToken },
    channels: {
      settings: config.notify.channels,
      storePageBaseUrl: config.notify.storePageBaseUrl,
    },
    metrics: { registry: parts.metrics.registry, token: parts.metrics.token.token },
    login: modules.readAccountSettings(config).login,
    billing: parts.billing,
  });
  stack.stoppers.push(async () => app.close());
  await app.listen({
    port: config.port,
    host: config.host,
    listenTextResolver: (address) => `Website and API listening at ${address}`,
  });
  stack.phases.mark('website and API');
  return app;
}

/** The API's token check: the website's client and the macOS app's; any other is refused. */
function createStackTokenVerifier(stack: StackWiring) {
  const { config, modules } = stack;
  return modules.createTokenVerifier({
    issuer: config.idp.issuer,
    audience: config.apiAudience,
    allowedClientIds:
      config.idp.kind === 'embedded'
        ? [config.idp.clientId, modules.DESKTOP_CLIENT_ID]
        : [config.idp.clientId, config.idp.desktopClientId].filter((id) => id !== undefined),
  });
}

/** Where the download page's Mac link points, read from the update feed when one is set. */
function createMacDownloadResolver(stack: StackWiring) {
  const { config, log } = stack;
  return config.macUpdateFeedUrl === null
    ? undefined
    : stack.modules.createDownloadLinkResolver({
        feedUrl: config.macUpdateFeedUrl,
        fetch,
        now: Date.now,
        log: (line) => log.warn(line),
      });
}

/** Starts alert delivery and the watcher, loaded only now that the server listens. */
export async function wireWorkers(stack: StackWiring, metrics: ShelfwatchMetrics): Promise<void> {
  const { db, config, connectionString, logger } = stack;
  // Nothing before needs them (pg-boss, the senders).
  const [{ startAlertDelivery }, { startConfiguredWatcher }] = await Promise.all([
    import('./notify/delivery-worker.ts'),
    import('./watch/start-watcher.ts'),
  ]);
  const delivery = await startAlertDelivery({
    db,
    config,
    databaseUrl: connectionString,
    logger: logger.child({ component: 'alerts' }),
    onSettled: stack.modules.createAlertRecorder(metrics),
  });
  stack.stoppers.push(async () => delivery.stop());
  const watcher = await startConfiguredWatcher({
    db,
    config,
    connectionString,
    logger,
    metrics,
  });
  stack.stoppers.push(async () => watcher?.stop());
  stack.phases.mark('alert delivery and watcher');
}
