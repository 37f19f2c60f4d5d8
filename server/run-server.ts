import { loadConfig } from './config/app-config.ts';
import { takeOverShutdownSignals } from './db/embedded-postgres.ts';
import { createLogger, resolveLogFormat } from './logging/logger.ts';
import { formatStartBanner } from './start-banner.ts';
import { startStack } from './stack.ts';

/**
 * `npm start` (the whole product on one machine) and `shelfwatch serve` (website, API and login
 * without the poller and alert delivery, which `shelfwatch worker` processes run), stopped
 * cleanly by Ctrl-C or SIGTERM.
 */
export async function runServer(options: { isWorkerIncluded: boolean }): Promise<void> {
  // performance.now() counts from the process's start: the figure includes loading modules.
  const modulesLoadedMs = performance.now();
  const config = loadConfig();
  let isStopping = false;
  const logger = createLogger({
    level: config.logLevel,
    format: config.logFormat,
    isStopping: () => isStopping,
  });
  logger.info(`Starting Shelfwatch (data in ${config.dataDir})...`);
  logger.debug(`Node and the server's modules loaded in ${(modulesLoadedMs / 1000).toFixed(2)} s`);
  const stack = await startStack(config, logger, options);
  const banner = formatStartBanner({ config, stack, startedInMs: performance.now() });
  if (resolveLogFormat(config.logFormat, process.stdout.isTTY === true) === 'pretty') {
    process.stdout.write(banner);
  } else {
    // Log collectors get it as one record; a person reading the JSON still finds the lines.
    logger.info({ banner: banner.trim().split('\n') }, `Shelfwatch is ready at ${stack.siteUrl}`);
  }

  const shutdown = (signal: string): void => {
    if (isStopping) {
      return;
    }
    isStopping = true;
    logger.info(`${signal} received, stopping...`);
    stack.stop().then(
      () => {
        logger.info('Stopped.');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'Shutdown failed');
        process.exit(1);
      },
    );
  };
  takeOverShutdownSignals();
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
