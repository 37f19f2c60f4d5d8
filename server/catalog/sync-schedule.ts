import type { Db } from '#server/db/database.ts';
import { findLatestCatalogChange } from '#server/db/repositories/catalog-changes-repository.ts';
import { syncModelsFromBuyPages } from './sync-models.ts';
import { startRepeatingCheck, type SyncScheduleLog } from './repeating-check.ts';
import type { ModelSyncSettings } from './sync-settings.ts';

export type { SyncScheduleLog } from './repeating-check.ts';

// Checked at most this often, and this long after start so a start is never slowed by a sync.
const CHECK_EVERY_MS = 15 * 60_000;
const FIRST_CHECK_AFTER_MS = 60_000;

/**
 * Runs `catalog sync-models` by itself: whenever the last sync (by any process sharing the
 * database, successful or not) is older than the interval. A sync that read no page changes
 * nothing and is retried at the next interval; pages that failed beside ones that were read
 * are logged as an error. Returns a function that stops the schedule.
 */
export function startModelSyncSchedule(options: {
  db: Db;
  baseUrl: string;
  settings: ModelSyncSettings;
  log: SyncScheduleLog;
  now?: () => number;
  firstCheckAfterMs?: number;
}): () => Promise<void> {
  const now = options.now ?? Date.now;
  const check = async (): Promise<void> => {
    const last = await findLatestCatalogChange(options.db, 'sync');
    if (last !== undefined && now() - last.created_at.getTime() < options.settings.intervalMs)
      return;
    try {
      const result = await syncModelsFromBuyPages(options.db, {
        baseUrl: options.baseUrl,
        pageIntervalMs: options.settings.pageIntervalMs,
        trigger: 'scheduled sync',
      });
      const details = {
        pages: result.pages.length,
        changes: result.summary,
        pagesRetired: result.pagesRetired,
        problems: result.problems,
        warnings: result.warnings,
      };
      // Pages that could not be read do not stop the others; they are an error to look into.
      if (result.problems.length > 0) {
        options.log.error(details, 'catalog sync applied what it read; some buy pages failed');
      } else {
        options.log.info(details, 'catalog sync from the buy pages finished');
      }
    } catch (error) {
      options.log.error({ err: error }, 'catalog sync from the buy pages failed; nothing changed');
    }
  };

  return startRepeatingCheck({
    check,
    everyMs: Math.min(CHECK_EVERY_MS, options.settings.intervalMs),
    firstCheckAfterMs: options.firstCheckAfterMs ?? FIRST_CHECK_AFTER_MS,
    log: options.log,
    failureMessage: 'catalog sync check failed',
  });
}
