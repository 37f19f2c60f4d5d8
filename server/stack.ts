import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { StripeConnection } from './billing/index.ts';
import type { AppConfig } from './config/app-config.ts';
import { createDatabase, type Db } from './db/database.ts';
import {
  connectEmbeddedPostgres,
  ensureDatabase,
  findRunningPostmaster,
  startEmbeddedPostgres,
  type EmbeddedCluster,
  type RestartEvent,
} from './db/embedded-postgres.ts';
import { createLogger, type Logger } from './logging/logger.ts';
import type { RunningIdentityProvider } from './identity/index.ts';

/** Where the built website lives, relative to this file. */
const WEBSITE_DIR = fileURLToPath(new URL('../dist/renderer', import.meta.url));

/** Where the stack's data lives: an embedded cluster in the data folder, or DATABASE_URL. */
export type DatabaseSource =
  { kind: 'embedded'; port: number; directory: string; isShared: boolean } | { kind: 'url' };

/** A running Shelfwatch: database, login provider and HTTP app. */
export type RunningStack = {
  db: Db;
  app: FastifyInstance;
  siteUrl: string;
  issuer: string;
  database: DatabaseSource;
  demo: { email: string; password: string | undefined; isCreated: boolean } | undefined;
  stop: () => Promise<void>;
};

/** An open database, and the cluster this process started for it, if any. */
export type OpenedDatabase = {
  db: Db;
  connectionString: string;
  /** Stops what this process started; a shared cluster is left running. */
  cluster: EmbeddedCluster | undefined;
  source: DatabaseSource;
};

/**
 * Opens DATABASE_URL, or the embedded cluster of the data folder. When that cluster already
 * runs (its postmaster.pid names a live process on a listening port), `isSharing` connects
 * to it (the CLI and workers beside `npm start`); otherwise this is refused with a message
 * saying who holds the folder, since a second postmaster cannot start on it.
 */
export async function openDatabase(
  config: AppConfig,
  options: {
    isSharing: boolean;
    onPostgresLog?: (line: string) => void;
    /** Reports idle connections the server dropped (default: stderr). */
    warn?: (line: string) => void;
  },
): Promise<OpenedDatabase> {
  if (config.databaseUrl !== undefined) {
    return {
      db: createDatabase(config.databaseUrl, undefined, options.warn),
      connectionString: config.databaseUrl,
      cluster: undefined,
      source: { kind: 'url' },
    };
  }
  await mkdir(config.dataDir, { recursive: true });
  const directory = path.join(config.dataDir, 'postgres');
  const passwordFile = path.join(config.dataDir, 'postgres-password');
  const running = await findRunningPostmaster(directory);
  if (running !== undefined && !options.isSharing) {
    throw new Error(
      `The data folder ${config.dataDir} is in use: its embedded PostgreSQL runs (pid ${running.pid}, port ${running.port}), ` +
        'most likely for another `npm start`. Stop that one first (Ctrl-C in its terminal), or set ' +
        `SHELFWATCH_DATA_DIR to another folder. If no Shelfwatch runs, \`kill ${running.pid}\` stops the leftover cluster.`,
    );
  }
  const cluster =
    running === undefined
      ? await startOrShareCluster(config, directory, passwordFile, options)
      : { ...running, cluster: await shareCluster(running.port, passwordFile), isShared: true };
  await ensureDatabase(cluster.cluster, 'shelfwatch');
  const connectionString = cluster.cluster.connectionString('shelfwatch');
  return {
    db: createDatabase(connectionString, undefined, options.warn),
    connectionString,
    cluster: cluster.cluster,
    source: { kind: 'embedded', port: cluster.port, directory, isShared: cluster.isShared },
  };
}

/** Starts the data folder's cluster; a sharing caller that lost a race to start it joins the winner. */
async function startOrShareCluster(
  config: AppConfig,
  directory: string,
  passwordFile: string,
  options: {
    isSharing: boolean;
    onPostgresLog?: (line: string) => void;
    warn?: (line: string) => void;
  },
): Promise<{ cluster: EmbeddedCluster; port: number; isShared: boolean }> {
  const password = await loadOrCreateSecretFile(passwordFile);
  const warn = options.warn ?? ((line: string) => console.error(line));
  try {
    const cluster = await startEmbeddedPostgres({
      directory,
      port: config.embeddedPgPort,
      password,
      onLog: options.onPostgresLog,
      // The process that started the cluster keeps it running: the API answers 503 meanwhile.
      supervise: { onRestart: (event) => warn(describeRestart(event)) },
    });
    return { cluster, port: config.embeddedPgPort, isShared: false };
  } catch (error) {
    const winner = options.isSharing ? await findRunningPostmaster(directory) : undefined;
    if (winner === undefined) throw error;
    return {
      cluster: await shareCluster(winner.port, passwordFile),
      port: winner.port,
      isShared: true,
    };
  }
}

/** One line of the embedded cluster's supervisor. */
function describeRestart(event: RestartEvent): string {
  switch (event.kind) {
    case 'exited':
      return `Embedded PostgreSQL (pid ${event.pid}) exited; restarting it`;
    case 'restarted':
      return `Embedded PostgreSQL is back (attempt ${event.attempt})`;
    case 'failed':
      return (
        `Embedded PostgreSQL did not restart (attempt ${event.attempt}: ` +
        `${event.error instanceof Error ? event.error.message : String(event.error)}); ` +
        `trying again in ${Math.round(event.retryInMs / 1000)} s`
      );
  }
}

async function shareCluster(port: number, passwordFile: string): Promise<EmbeddedCluster> {
  const password = await readFile(passwordFile, 'utf8').catch((error: unknown) => {
    throw new Error(
      `The embedded PostgreSQL runs, but its password file ${passwordFile} cannot be read`,
      {
        cause: error,
      },
    );
  });
  return connectEmbeddedPostgres({ port, password: password.trim() });
}

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
  let reportPostmasterOutput = (): void => undefined;
  const postmasterOutput = new Promise<void>((resolve) => (reportPostmasterOutput = resolve));
  const opening = openDatabase(config, {
    isSharing: false,
    onPostgresLog: (chunk) => {
      reportPostmasterOutput();
      for (const line of chunk.split('\n')) if (line.trim() !== '') postgresLog.debug(line.trim());
    },
    warn: (line) => postgresLog.warn(line),
  });
  // Loaded while PostgreSQL starts in its own process; a cluster opened for a start that then
  // fails to load is stopped again. Loading holds the event loop for most of its time, so it
  // begins once the postmaster has written its first line (or the database is open, or failed
  // to): the child processes embedded-postgres runs first (`id -u postgres` when root) would
  // otherwise wait for all of it, and PostgreSQL would start only once it is done (issue 30).
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
  const { db, cluster, connectionString, source } = opened.value;
  const {
    buildApp,
    readAccountSettings,
    migrateToLatest,
    createMetrics,
    createAlertRecorder,
    createTokenVerifier,
    DESKTOP_CLIENT_ID,
    startIdentityProvider,
    createDownloadLinkResolver,
    seedCatalog,
    startCatalogServices,
    ensureDemoAccount,
    startUpstreamSimulator,
    COUNTRY_SEEDS,
    PRODUCT_MODEL_SEEDS,
    STORE_SEEDS,
  } = loaded.value;
  phases.mark('database and modules');
  if (source.kind === 'embedded') {
    log.debug(`PostgreSQL (embedded) on 127.0.0.1:${source.port}, data in ${source.directory}`);
  }
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    for (const stopper of stoppers.reverse()) {
      await stopper().catch((error: unknown) =>
        log.error(`shutdown step failed: ${String(error)}`),
      );
    }
  };
  if (config.trustProxy === false && isServedOverHttps(config)) {
    log.warn(
      'PUBLIC_URL is https but TRUST_PROXY is not set: behind a TLS proxy every visitor has the ' +
        "proxy's address and all share one rate limit. Set TRUST_PROXY to the proxy's address.",
    );
  }
  stoppers.push(async () => cluster?.stop());
  stoppers.push(async () => db.destroy());
  try {
    await migrateToLatest(db);
    phases.mark('migrations');
    await seedCatalog(db);
    phases.mark('catalog seed');
    stoppers.push(await startCatalogServices({ db, connectionString, config, logger }));
    phases.mark('catalog services');

    if (config.simulator.isEnabled) {
      const simulator = await startUpstreamSimulator({
        port: config.simulator.port,
        seed: config.simulator.seed,
        ...config.simulator.behaviour,
        stores: STORE_SEEDS,
        models: PRODUCT_MODEL_SEEDS,
        countries: COUNTRY_SEEDS,
      });
      stoppers.push(async () => simulator.close());
      phases.mark('simulator');
      log.debug(
        `Upstream simulator on ${simulator.url} (seed ${config.simulator.seed}, state: ${simulator.url}/_sim/state)`,
      );
    }

    let idp: RunningIdentityProvider | undefined;
    if (config.idp.kind === 'embedded') {
      const idpLog = logger.child({ component: 'login' });
      idp = await startIdentityProvider({
        db,
        issuer: config.idp.issuer,
        port: config.idp.port,
        clientId: config.idp.clientId,
        apiAudience: config.apiAudience,
        siteOrigins: [new URL(config.publicUrl).origin],
        trustProxy: config.trustProxy,
        loginLimits: config.loginLimits,
        passwordReset: {
          mailer: readAccountSettings(config).mailer,
          supportEmail: config.supportEmail,
        },
        // Its info lines repeat what the start banner says.
        logger: { info: (line) => idpLog.debug(line), warn: (line) => idpLog.warn(line) },
      });
      stoppers.push(async () => idp?.close());
      phases.mark('login provider');
    }
    const demo =
      config.idp.kind === 'embedded' && config.demo.isEnabled
        ? await ensureDemoAccount(db, { issuer: config.idp.issuer, password: config.demo.password })
        : undefined;
    phases.mark('demo account');

    const metrics = createMetrics(db);
    const billingLog = logger.child({ component: 'billing' });
    // Stripe (~80 ms of modules) loads only when billing is configured.
    const billing =
      config.billing === undefined
        ? null
        : (await import('./billing/index.ts')).createBilling({
            db,
            settings: config.billing,
            accounts: readAccountSettings(config),
            connection: options.stripeConnection,
            log: { info: (line) => billingLog.info(line), warn: (line) => billingLog.warn(line) },
          });
    const app = await buildApp({
      db,
      databaseUrl: connectionString,
      watchStatus: {
        preferredShape: config.upstream.shape,
        controlParts: config.upstream.controlParts,
      },
      verifyToken: createTokenVerifier({
        issuer: config.idp.issuer,
        audience: config.apiAudience,
        // The website's client and the macOS app's; tokens of any other client are refused.
        allowedClientIds:
          config.idp.kind === 'embedded'
            ? [config.idp.clientId, DESKTOP_CLIENT_ID]
            : [config.idp.clientId, config.idp.desktopClientId].filter((id) => id !== undefined),
      }),
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
        isBillingConfigured: billing !== null,
        macDownloadUrl: config.macDownloadUrl,
        cookiePrefix: 'shelfwatch_',
      },
      resolveMacDownloadUrl:
        config.macUpdateFeedUrl === null
          ? undefined
          : createDownloadLinkResolver({
              feedUrl: config.macUpdateFeedUrl,
              fetch,
              now: Date.now,
              log: (line) => log.warn(line),
            }),
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
      metrics: { registry: metrics, token: config.metrics.token },
      login: readAccountSettings(config).login,
      billing,
    });
    stoppers.push(async () => app.close());
    await app.listen({
      port: config.port,
      host: config.host,
      listenTextResolver: (address) => `Website and API listening at ${address}`,
    });
    phases.mark('website and API');
    // `shelfwatch serve` leaves polling and delivery to `shelfwatch worker` processes.
    if (options.isWorkerIncluded) {
      // Loaded once the server listens: nothing before needs them (pg-boss, the senders).
      const [{ startAlertDelivery }, { startConfiguredWatcher }] = await Promise.all([
        import('./notify/delivery-worker.ts'),
        import('./watch/start.ts'),
      ]);
      const delivery = await startAlertDelivery({
        db,
        config,
        databaseUrl: connectionString,
        logger: logger.child({ component: 'alerts' }),
        onSettled: createAlertRecorder(metrics),
      });
      stoppers.push(async () => delivery.stop());
      const watcher = await startConfiguredWatcher({
        db,
        config,
        connectionString,
        logger,
        metrics,
      });
      stoppers.push(async () => watcher?.stop());
      phases.mark('alert delivery and watcher');
    }
    // Where an unchanged start spends its time (issue 30 asks for 3 s to healthy).
    log.debug(`Start phases: ${phases.describe()}`);
    return {
      db,
      app,
      siteUrl: config.publicUrl,
      issuer: config.idp.issuer,
      database: source,
      demo,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Records how long each start step took since the previous one, for the debug line. */
function createPhaseClock(): { mark: (name: string) => void; describe: () => string } {
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

/** Reads a generated secret from `file`, creating it (mode 600) on first use. */
async function loadOrCreateSecretFile(file: string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(24).toString('base64url');
    await writeFile(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
}
