import type { AppConfig } from '#server/config.ts';
import { takeOverShutdownSignals } from '#server/db/embedded-postgres.ts';
import { migrateToLatest } from '#server/db/migrate.ts';
import { startAlertDelivery } from '#server/notify/delivery-worker.ts';
import { seedCatalog } from '#server/services/catalog-service.ts';
import { openDatabase } from '#server/stack.ts';
import { startConfiguredWatcher } from './start.ts';

/**
 * `shelfwatch worker`: the poller and the alert delivery without the website, for running
 * more processes against one DATABASE_URL. It does not start the upstream simulator (npm
 * start does); point UPSTREAM_BASE_URL at a running one or at https://www.apple.com.
 * With WATCH_ENABLED=false it only delivers. Resolves after SIGINT or SIGTERM once all stopped.
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
    // WATCH_ENABLED=false makes a delivery-only worker.
    const watcher = await startConfiguredWatcher({ db, config, connectionString, log });
    const delivery = await startAlertDelivery({
      db,
      config,
      databaseUrl: connectionString,
      logger: { info: log, warn: log, error: log },
    });
    log('Worker delivering alerts; Ctrl-C stops it.');
    takeOverShutdownSignals();
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    log('Worker stopping...');
    await watcher?.stop();
    await delivery.stop();
  } finally {
    await db.destroy();
    await cluster?.stop();
  }
}
