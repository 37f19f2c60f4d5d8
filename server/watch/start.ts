import type { AppConfig } from '#server/config.ts';
import type { Db } from '#server/db/database.ts';
import { startWatcher, type RunningWatcher } from './watcher.ts';

/** Starts the watcher as configured, or returns undefined when WATCH_ENABLED=false. */
export async function startConfiguredWatcher(options: {
  db: Db;
  config: Pick<AppConfig, 'watch' | 'upstream' | 'alerts'>;
  connectionString: string;
  log: (line: string) => void;
}): Promise<RunningWatcher | undefined> {
  const { config } = options;
  if (!config.watch.isEnabled) return undefined;
  const watcher = await startWatcher({
    db: options.db,
    connectionString: options.connectionString,
    baseUrl: config.upstream.baseUrl,
    shape: config.upstream.shape,
    pollIntervalSeconds: config.watch.pollIntervalSeconds,
    upstreamRatePerMinute: config.watch.upstreamRatePerMinute,
    upstreamBurst: config.watch.upstreamBurst,
    quietWindowMinutes: config.alerts.quietWindowMinutes,
    log: options.log,
  });
  options.log(
    `Watcher polling ${config.upstream.baseUrl} every ${config.watch.pollIntervalSeconds} s ` +
      `(at most ${config.watch.upstreamRatePerMinute} requests a minute, bursts of ${config.watch.upstreamBurst})`,
  );
  return watcher;
}
