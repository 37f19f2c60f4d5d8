import Fastify from 'fastify';
import type { AppConfig } from '#server/config/app-config.ts';
import { takeOverShutdownSignals } from '#server/db/embedded-postgres.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { createLogger, type Logger } from '#server/logging/logger.ts';
import { createMetrics, type ShelfwatchMetrics } from '#server/ops/metrics.ts';
import { createAlertRecorder } from '#server/notify/record-alert.ts';
import { startAlertDelivery } from '#server/notify/delivery-worker.ts';
import { metricsRoutes } from '#server/ops/metrics-routes.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { openDatabase } from '#server/db/open-database.ts';
import { startConfiguredWatcher } from './watch/start-watcher.ts';

/**
 * `shelfwatch worker`: the poller and the alert delivery without the website, for running
 * more processes against one DATABASE_URL (or beside `npm start`, on the embedded cluster it
 * runs). It does not start the upstream simulator (npm start does); point UPSTREAM_BASE_URL
 * at a running one or at https://www.apple.com. With WATCH_ENABLED=false it only delivers.
 * Resolves after SIGINT or SIGTERM once all stopped.
 */
export async function runWorker(
  config: AppConfig,
  logger: Logger = createLogger({ level: config.logLevel, format: config.logFormat }),
): Promise<void> {
  const log = logger.child({ component: 'worker' });
  const { db, cluster, connectionString, source } = await openDatabase(config, {
    isSharing: true,
    asApplication: true,
    warn: (line) => log.warn(line),
  });
  if (source.kind === 'embedded') {
    log.info(
      source.isShared
        ? `Using the running embedded PostgreSQL on port ${source.port}`
        : `Started embedded PostgreSQL on port ${source.port} (stopped again with the worker)`,
    );
  }
  try {
    await migrateToLatest(db);
    await seedCatalog(db);
    const metrics = createMetrics(db);
    // WATCH_ENABLED=false makes a delivery-only worker.
    const watcher = await startConfiguredWatcher({ db, config, connectionString, logger, metrics });
    const delivery = await startAlertDelivery({
      db,
      config,
      databaseUrl: connectionString,
      logger: logger.child({ component: 'alerts' }),
      onSettled: createAlertRecorder(metrics),
    });
    const metricsServer =
      config.metrics.workerPort === undefined
        ? undefined
        : await serveWorkerMetrics(metrics, config.metrics, config.host);
    if (metricsServer !== undefined) log.info(`Metrics at ${metricsServer.url}/metrics`);
    log.info('Worker delivering alerts; Ctrl-C stops it.');
    takeOverShutdownSignals();
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    log.info('Worker stopping...');
    await metricsServer?.close();
    await watcher?.stop();
    await delivery.stop();
  } finally {
    await db.destroy();
    await cluster?.stop();
  }
}

/** A worker has no website: its metrics get a server of their own on METRICS_PORT. */
async function serveWorkerMetrics(
  metrics: ShelfwatchMetrics,
  settings: AppConfig['metrics'],
  host: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  await app.register(metricsRoutes, { metrics, token: settings.token });
  // listen() resolves with the address it bound, e.g. http://127.0.0.1:9464.
  const url = await app.listen({ port: settings.workerPort, host });
  return { url, close: () => app.close() };
}
