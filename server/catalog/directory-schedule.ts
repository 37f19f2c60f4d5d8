import type { Db } from '#server/db/database.ts';
import { findLatestDirectorySyncAt } from '#server/db/repositories/store-directory-repository.ts';
import { createDirectoryPacer } from './directory-pacing.ts';
import { syncStoreDirectory } from './directory-sync.ts';
import { startRepeatingCheck, type SyncScheduleLog } from './repeating-check.ts';
import type { ModelSyncSettings } from './sync-settings.ts';

// Checked as often as the buy-page sync, and a little after it so the two never start together.
const CHECK_EVERY_MS = 15 * 60_000;
const FIRST_CHECK_AFTER_MS = 2 * 60_000;
// A sync waits this long at most for a token of the address before leaving the rest for later.
const MAX_TOKEN_WAIT_MS = 10 * 60_000;

/**
 * Runs the store directory sync on the catalog schedule: whenever the last directory read (by
 * any process sharing the database) is older than CATALOG_SYNC_INTERVAL_HOURS. Requests are
 * CATALOG_SYNC_PAGE_INTERVAL_SECONDS apart and each takes a token of `addressLabel`'s bucket
 * when the watcher declared it. Returns a function that stops the schedule.
 */
export function startDirectorySyncSchedule(options: {
  db: Db;
  baseUrl: string;
  settings: ModelSyncSettings;
  log: SyncScheduleLog;
  /** The egress address the requests leave from ("direct <host name>"). */
  addressLabel?: string;
  now?: () => number;
  firstCheckAfterMs?: number;
}): () => Promise<void> {
  const now = options.now ?? Date.now;
  const check = async (): Promise<void> => {
    const last = await findLatestDirectorySyncAt(options.db);
    if (last !== undefined && now() - last.getTime() < options.settings.intervalMs) return;
    const result = await syncStoreDirectory(options.db, {
      baseUrl: options.baseUrl,
      now,
      pacer: createDirectoryPacer({
        db: options.db,
        addressLabel: options.addressLabel,
        intervalMs: options.settings.pageIntervalMs,
        maxWaitMs: MAX_TOKEN_WAIT_MS,
        now,
      }),
    });
    const details = {
      countries: result.countries.map((entry) => ({
        country: entry.countryCode,
        outcome: entry.outcome,
        added: entry.added,
        closed: entry.closed,
        reopened: entry.reopened,
        problem: entry.problem,
      })),
    };
    // A 404 is Apple's own gap (Thailand): reported, not an error. Anything else failing is.
    if (result.countries.some((entry) => entry.outcome === 'failed')) {
      options.log.error(
        details,
        'store directory sync applied what it read; some countries failed',
      );
    } else {
      options.log.info(details, 'store directory sync finished');
    }
  };

  return startRepeatingCheck({
    check,
    everyMs: Math.min(CHECK_EVERY_MS, options.settings.intervalMs),
    firstCheckAfterMs: options.firstCheckAfterMs ?? FIRST_CHECK_AFTER_MS,
    log: options.log,
    failureMessage: 'store directory sync failed',
  });
}
