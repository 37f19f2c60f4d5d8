import type { AppConfig } from '#server/config/app-config.ts';
import type { Db } from '#server/db/database.ts';
import type { Logger } from '#server/logging/logger.ts';
import { listenForCatalogChanges } from './catalog-notify.ts';
import { startModelSyncSchedule } from './sync-schedule.ts';
import { isModelSyncScheduled, loadModelSyncSettings } from './sync-settings.ts';

/**
 * Starts the catalog's background parts for a server: the change listener, and the buy-page
 * sync schedule when it applies (CATALOG_SYNC; by default only when watching Apple itself).
 * Returns one function that stops both.
 */
export async function startCatalogServices(options: {
  db: Db;
  connectionString: string;
  config: AppConfig;
  logger: Logger;
}): Promise<() => Promise<void>> {
  const log = options.logger.child({ component: 'catalog' });
  const stopListening = await listenForCatalogChanges(options.connectionString, log);
  const settings = loadModelSyncSettings();
  const baseUrl = options.config.upstream.baseUrl;
  const stopSchedule = isModelSyncScheduled(settings, baseUrl)
    ? startModelSyncSchedule({
        db: options.db,
        baseUrl,
        settings,
        log: {
          info: (details, message) => log.info(details, message),
          error: (details, message) => log.error(details, message),
        },
      })
    : undefined;
  return async () => {
    await stopSchedule?.();
    await stopListening();
  };
}
