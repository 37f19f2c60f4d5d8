import type { AppConfig } from '#server/config.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { startAlertDelivery } from '#server/notify/delivery-worker.ts';
import { seedCatalog } from '#server/services/catalog-service.ts';
import { openDatabase } from '#server/stack.ts';
import { startWatcher } from './watcher.ts';

/**
 * `shelfwatch worker`: the poller and the alert delivery without the website, for running
 * more processes against one DATABASE_URL. It does not start the upstream simulator (npm
 * start does); point UPSTREAM_BASE_URL at a running one or at https://www.apple.com.
 * Resolves after SIGINT or SIGTERM once both have stopped.
 */
export async function runWorker(
  config: AppConfig,
  log: (line: string) => void = console.log,
): Promise<void> {
  const { db, cluster } = await openDatabase(config, log);
  const connectionString = config.databaseUrl ?? cluster?.connectionString('shelfwatch');
  if (connectionString === undefined)
    throw new Error('The worker needs DATABASE_URL or the embedded database');
  try {
    await migrateToLatest(db);
    await seedCatalog(db);
    const watcher = await startWatcher({
      db,
      connectionString,
      baseUrl: config.upstream.baseUrl,
      shape: config.upstream.shape,
      pollIntervalSeconds: config.watch.pollIntervalSeconds,
      upstreamRatePerMinute: config.watch.upstreamRatePerMinute,
      upstreamBurst: config.watch.upstreamBurst,
      quietWindowMinutes: config.alerts.quietWindowMinutes,
      log,
    });
    const delivery = await startAlertDelivery({
      db,
      config,
      databaseUrl: connectionString,
      logger: { info: log, warn: log, error: log },
    });
    log(
      `Worker polling ${config.upstream.baseUrl} every ${config.watch.pollIntervalSeconds} s and delivering alerts; Ctrl-C stops it.`,
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    log('Worker stopping...');
    await watcher.stop();
    await delivery.stop();
  } finally {
    await db.destroy();
    await cluster?.stop();
  }
}
