import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import type { AppConfig } from './config.ts';
import { createDatabase, type Db } from './db/database.ts';
import {
  ensureDatabase,
  startEmbeddedPostgres,
  type EmbeddedCluster,
} from './db/embedded-postgres.ts';
import { migrateToLatest } from './db/migrate.ts';
import { startAlertDelivery } from './notify/delivery-worker.ts';
import { createTokenVerifier } from './plugins/auth/token-verifier.ts';
import { startIdentityProvider, type RunningIdentityProvider } from './plugins/idp/index.ts';
import { createDownloadLinkResolver } from './services/download-link.ts';
import { seedCatalog } from './services/catalog-service.ts';
import { ensureDemoAccount } from './services/demo-service.ts';
import { startUpstreamSimulator } from './watch/simulator/index.ts';
import { startConfiguredWatcher } from './watch/start.ts';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';

/** Where the built website lives, relative to this file. */
const WEBSITE_DIR = fileURLToPath(new URL('../dist/renderer', import.meta.url));

/** A running Shelfwatch: database, login provider and HTTP app. */
export type RunningStack = {
  db: Db;
  app: FastifyInstance;
  siteUrl: string;
  issuer: string;
  demo: { email: string; password: string | undefined; isCreated: boolean } | undefined;
  stop: () => Promise<void>;
};

/** Opens the configured database, or starts the embedded cluster in the data folder. */
export async function openDatabase(
  config: AppConfig,
  log: (line: string) => void,
): Promise<{ db: Db; cluster: EmbeddedCluster | undefined }> {
  if (config.databaseUrl !== undefined) {
    return { db: createDatabase(config.databaseUrl), cluster: undefined };
  }
  await mkdir(config.dataDir, { recursive: true });
  const cluster = await startEmbeddedPostgres({
    directory: path.join(config.dataDir, 'postgres'),
    port: config.embeddedPgPort,
    password: await loadOrCreateSecretFile(path.join(config.dataDir, 'postgres-password')),
  });
  await ensureDatabase(cluster, 'shelfwatch');
  log(
    `PostgreSQL (embedded) on 127.0.0.1:${config.embeddedPgPort}, data in ${path.join(config.dataDir, 'postgres')}`,
  );
  return { db: createDatabase(cluster.connectionString('shelfwatch')), cluster };
}

/** Starts every part of the product in this process, in dependency order. */
export async function startStack(
  config: AppConfig,
  log: (line: string) => void = console.log,
): Promise<RunningStack> {
  const { db, cluster } = await openDatabase(config, log);
  const stoppers: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    for (const stopper of stoppers.reverse()) {
      await stopper().catch((error: unknown) => log(`shutdown step failed: ${String(error)}`));
    }
  };
  stoppers.push(async () => cluster?.stop());
  stoppers.push(async () => db.destroy());
  try {
    await migrateToLatest(db);
    await seedCatalog(db);

    if (config.simulator.isEnabled) {
      const simulator = await startUpstreamSimulator({
        port: config.simulator.port,
        seed: config.simulator.seed,
        stores: STORE_SEEDS,
        models: PRODUCT_MODEL_SEEDS,
        countries: COUNTRY_SEEDS,
      });
      stoppers.push(async () => simulator.close());
      log(
        `Upstream simulator on ${simulator.url} (seed ${config.simulator.seed}, state: ${simulator.url}/_sim/state)`,
      );
    }

    let idp: RunningIdentityProvider | undefined;
    if (config.idp.kind === 'embedded') {
      idp = await startIdentityProvider({
        db,
        issuer: config.idp.issuer,
        port: config.idp.port,
        clientId: config.idp.clientId,
        apiAudience: config.apiAudience,
        siteOrigins: [new URL(config.publicUrl).origin],
        logger: { info: log, warn: log },
      });
      stoppers.push(async () => idp?.close());
      log(`Login provider (embedded OpenID) on ${config.idp.issuer}`);
    }
    const demo =
      config.idp.kind === 'embedded' && config.demo.isEnabled
        ? await ensureDemoAccount(db, { issuer: config.idp.issuer, password: config.demo.password })
        : undefined;

    const app = await buildApp({
      db,
      verifyToken: createTokenVerifier({ issuer: config.idp.issuer, audience: config.apiAudience }),
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
        isBillingConfigured: false,
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
              log,
            }),
      corsOrigins: [new URL(config.publicUrl).origin, 'app://shelfwatch'],
      staticDir: WEBSITE_DIR,
      logLevel: config.logLevel,
      notify: { publicUrl: config.publicUrl, twilioAuthToken: config.notify.twilioAuthToken },
    });
    stoppers.push(async () => app.close());
    await app.listen({ port: config.port, host: config.host });
    log(`Website and API on ${config.publicUrl} (health: ${config.publicUrl}/healthz)`);
    const delivery = await startAlertDelivery({
      db,
      config,
      databaseUrl: config.databaseUrl ?? cluster?.connectionString('shelfwatch'),
      logger: { info: log, warn: log, error: log },
    });
    stoppers.push(async () => delivery.stop());
    const watcher = await startConfiguredWatcher({
      db,
      config,
      connectionString: config.databaseUrl ?? cluster?.connectionString('shelfwatch') ?? '',
      log,
    });
    stoppers.push(async () => watcher?.stop());
    log(
      `Alert delivery: email ${config.notify.smtpUrl === undefined ? `to ${path.join(config.dataDir, 'outbox', 'email')}` : 'over SMTP'}, text ${config.notify.twilio === undefined ? `to ${path.join(config.dataDir, 'outbox', 'text')}` : 'via Twilio'}`,
    );
    return { db, app, siteUrl: config.publicUrl, issuer: config.idp.issuer, demo, stop };
  } catch (error) {
    await stop();
    throw error;
  }
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
