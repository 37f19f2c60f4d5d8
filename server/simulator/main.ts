import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { loadConfig } from '#server/config/app-config.ts';
import { startUpstreamSimulator } from './index.ts';

/** `npx tsx server/simulator/main.ts`: the simulator alone, for benchmarks and manual poking. */
async function runSimulator(): Promise<void> {
  const config = loadConfig();
  const simulator = await startUpstreamSimulator({
    port: config.simulator.port,
    seed: config.simulator.seed,
    ...config.simulator.behaviour,
    stores: STORE_SEEDS,
    models: PRODUCT_MODEL_SEEDS,
    countries: COUNTRY_SEEDS,
  });
  const { fulfillmentMessages, blockAfterRequests, blockWindowSeconds, blockSeconds } =
    simulator.behaviour;
  const block =
    blockAfterRequests === 0
      ? 'no per-address block'
      : `541 for ${blockSeconds} s after ${blockAfterRequests} requests in ${blockWindowSeconds} s per address`;
  console.log(
    `Upstream simulator on ${simulator.url} (seed ${config.simulator.seed}; fulfillment-messages ${fulfillmentMessages}; ${block}); Ctrl-C stops it`,
  );
  const stop = (): void => {
    simulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

runSimulator().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
