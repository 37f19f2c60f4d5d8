import { loadConfig } from './config.ts';
import { takeOverShutdownSignals } from './db/embedded-postgres.ts';
import { startStack } from './stack.ts';

/** `npm start`: the whole product on one machine, stopped cleanly by Ctrl-C or SIGTERM. */
async function main(): Promise<void> {
  const startedAt = Date.now();
  const config = loadConfig();
  const stack = await startStack(config);
  if (stack.demo !== undefined) {
    const password =
      stack.demo.password ??
      "(unchanged: set SHELFWATCH_DEMO_PASSWORD, or see the first start's log)";
    console.log(
      `Demo account: ${stack.demo.email} / ${password}${stack.demo.isCreated ? ' (created now)' : ''}`,
    );
  }
  console.log(
    `Shelfwatch is ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s: open ${stack.siteUrl}`,
  );

  let isStopping = false;
  const shutdown = (signal: string): void => {
    if (isStopping) {
      return;
    }
    isStopping = true;
    console.log(`${signal} received, stopping...`);
    stack.stop().then(
      () => {
        console.log('Stopped.');
        process.exit(0);
      },
      (error: unknown) => {
        console.error('Shutdown failed', error);
        process.exit(1);
      },
    );
  };
  takeOverShutdownSignals();
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  if (error instanceof Error && error.cause !== undefined) {
    console.error('Cause:', error.cause);
  }
  process.exit(1);
});
