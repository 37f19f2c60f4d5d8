import os from 'node:os';
import type { AppConfig } from '#server/config/app-config.ts';
import type { Db } from '#server/db/database.ts';
import type { Logger } from '#server/logging/logger.ts';
import { listenForCatalogChanges } from './catalog-notify.ts';
import { startDirectorySyncSchedule } from './directory-schedule.ts';
import { startModelSyncSchedule } from './sync-schedule.ts';
import { isModelSyncScheduled, loadModelSyncSettings } from './sync-settings.ts';

/**
 * Starts the catalog's background parts for a server: the change listener, and the buy-page
 * and store directory sync schedules when they apply (CATALOG_SYNC; by default only when
 * watching Apple itself). Returns one function that stops them all.
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
  const scheduleLog = {
    info: (details: Record<string, unknown>, message: string) => log.info(details, message),
    error: (details: Record<string, unknown>, message: string) => log.error(details, message),
  };
  const isScheduled = isModelSyncScheduled(settings, baseUrl);
  const stopSchedule = isScheduled
    ? startModelSyncSchedule({ db: options.db, baseUrl, settings, log: scheduleLog })
    : undefined;
  const stopDirectorySchedule = isScheduled
    ? startDirectorySyncSchedule({
        db: options.db,
        baseUrl,
        settings,
        log: scheduleLog,
        // The watcher's label of this machine's direct route (watch/egress-agents.ts).
        addressLabel: `direct ${os.hostname()}`,
      })
    : undefined;
  return async () => {
    await stopSchedule?.();
    await stopDirectorySchedule?.();
    await stopListening();
  };
}
