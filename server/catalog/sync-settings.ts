import { z } from 'zod';
import { isAppleBaseUrl } from '#shared/upstream/index.ts';

// Settings of the automatic buy-page sync, read from the environment here rather than in
// server/config/app-config.ts so the catalog keeps its settings in one place (README lists them).

/** When the server syncs models from the buy pages by itself. */
export type ModelSyncSettings = {
  /** Whether the schedule runs: `auto` means only when watching Apple itself. */
  mode: 'auto' | 'on' | 'off';
  /** Time between two syncs; launch weeks may want 1 hour instead of the default day. */
  intervalMs: number;
  /** Pause between two buy-page requests of one sync. */
  pageIntervalMs: number;
};

const HOUR_MS = 3_600_000;

const settingsSchema = z.object({
  CATALOG_SYNC: z
    .enum(['auto', 'on', 'off'], { message: 'must be auto, on or off' })
    .default('auto'),
  CATALOG_SYNC_INTERVAL_HOURS: z.coerce
    .number({ message: 'must be a number of hours' })
    .min(0.25, 'must be at least 0.25 (15 minutes)')
    .max(24 * 7, 'must be at most 168 (a week)')
    .default(24),
  CATALOG_SYNC_PAGE_INTERVAL_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .min(0, 'must not be negative')
    .max(600, 'must be at most 600')
    .default(3),
});

/** Reads the sync settings; throws naming the variable when one is malformed. */
export function loadModelSyncSettings(env: NodeJS.ProcessEnv = process.env): ModelSyncSettings {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid catalog sync settings:\n  ${problems.join('\n  ')}`);
  }
  return {
    mode: parsed.data.CATALOG_SYNC,
    intervalMs: Math.round(parsed.data.CATALOG_SYNC_INTERVAL_HOURS * HOUR_MS),
    pageIntervalMs: Math.round(parsed.data.CATALOG_SYNC_PAGE_INTERVAL_SECONDS * 1000),
  };
}

/** Whether the schedule runs for this upstream: always, never, or (auto) against Apple only. */
export function isModelSyncScheduled(settings: ModelSyncSettings, baseUrl: string): boolean {
  if (settings.mode === 'auto') return isAppleBaseUrl(baseUrl);
  return settings.mode === 'on';
}
