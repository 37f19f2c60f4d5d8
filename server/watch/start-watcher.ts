import type { AppConfig } from '#server/config/app-config.ts';
import type { Db } from '#server/db/database.ts';
import { createCycleLog } from './cycle-log.ts';
import type { Logger } from '#server/logging/logger.ts';
import type { ShelfwatchMetrics } from '#server/ops/metrics.ts';
import { startWatcher, type RunningWatcher } from './watcher.ts';

/**
 * Starts the watcher as configured, or returns undefined when WATCH_ENABLED=false. It logs
 * one line per cycle that changed availability, queued alerts or had failed requests, and
 * nothing for the quiet ones.
 */
export async function startConfiguredWatcher(options: {
  db: Db;
  config: Pick<AppConfig, 'watch' | 'upstream' | 'alerts'>;
  connectionString: string;
  logger: Logger;
  metrics?: ShelfwatchMetrics;
}): Promise<RunningWatcher | undefined> {
  const { config } = options;
  if (!config.watch.isEnabled) return undefined;
  const log = options.logger.child({ component: 'watch' });
  const cycleLog = createCycleLog(log);
  const watcher = await startWatcher({
    db: options.db,
    connectionString: options.connectionString,
    baseUrl: config.upstream.baseUrl,
    shape: config.upstream.shape,
    pollIntervalSeconds: config.watch.pollIntervalSeconds,
    upstreamRatePerMinute: config.watch.upstreamRatePerMinute,
    upstreamBurst: config.watch.upstreamBurst,
    fullSweepMinutes: config.watch.fullSweepMinutes,
    proxies: config.upstream.proxies,
    isDirect: config.upstream.isDirect,
    allowH2: config.upstream.allowH2,
    partsPerRequest: config.upstream.partsPerRequest,
    controlParts: config.upstream.controlParts,
    coolDownSeconds: config.upstream.coolDownSeconds,
    maxCoolDownSeconds: config.upstream.maxCoolDownSeconds,
    quietWindowMinutes: config.alerts.quietWindowMinutes,
    // What the watcher says by itself is worth seeing: queue errors, crashed polls, schema notices.
    log: (line) => log.warn(line),
    onCyclePlanned: cycleLog.recordPlanned,
    onFreshness: (description) => log.info(`Request budget of all addresses: ${description}`),
    onPolled: (_job, outcome, cycleStartedAt) => {
      cycleLog.recordPolled(cycleStartedAt, outcome);
      options.metrics?.recordPoll(outcome);
    },
  });
  log.debug(
    `Watcher polling ${config.upstream.baseUrl} every ${config.watch.pollIntervalSeconds} s ` +
      `(per address: ${config.watch.upstreamRatePerMinute} requests a minute, bursts of ${config.watch.upstreamBurst}; ` +
      `${(config.upstream.isDirect ? 1 : 0) + config.upstream.proxies.length} addresses)`,
  );
  return {
    ...watcher,
    stop: async () => {
      await watcher.stop();
      cycleLog.flush();
    },
  };
}
