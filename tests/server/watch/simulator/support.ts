// Test support for the simulator: a running simulator on a free port with a hand-moved clock,
// and the real upstream client pointed at it.
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import {
  fetchPickupAvailability,
  type EndpointShape,
  type PickupAnswer,
  type PickupRequest,
  type UpstreamResult,
} from '#shared/upstream/index.ts';
import {
  startUpstreamSimulator,
  type RunningUpstreamSimulator,
} from '#server/watch/simulator/index.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';

/** A fixed instant the tests start their clocks at. */
export const START_MS = Date.UTC(2026, 0, 15, 12, 0, 0);

/** A simulator with a clock the test moves by hand. */
export type SimulatorHarness = {
  simulator: RunningUpstreamSimulator;
  /** Moves the simulator's clock forward. */
  advanceClock: (ms: number) => void;
  /** Asks the simulator through the product's real client. */
  ask: (
    request: PickupRequest,
    options?: { shape?: EndpointShape; timeoutMs?: number; fallbackShape?: boolean },
  ) => Promise<UpstreamResult<PickupAnswer>>;
  /** Calls the control API with a JSON body. */
  control: (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ) => Promise<{ status: number; json: unknown }>;
  close: () => Promise<void>;
};

/** Starts the simulator over the curated seed catalog on a free loopback port. */
export async function startSimulatorHarness(
  options: { seed?: number; changeEverySeconds?: number; startMs?: number } = {},
): Promise<SimulatorHarness> {
  let nowMs = options.startMs ?? START_MS;
  const simulator = await startUpstreamSimulator({
    port: await getFreePort(),
    seed: options.seed ?? 7,
    changeEverySeconds: options.changeEverySeconds,
    stores: STORE_SEEDS,
    models: PRODUCT_MODEL_SEEDS,
    countries: COUNTRY_SEEDS,
    now: () => nowMs,
  });
  return {
    simulator,
    advanceClock: (ms) => {
      nowMs += ms;
    },
    ask: (request, askOptions = {}) =>
      fetchPickupAvailability(
        {
          fetch,
          now: () => nowMs,
          baseUrl: simulator.url,
          shape: askOptions.shape ?? 'fulfillment-messages',
          timeoutMs: askOptions.timeoutMs ?? 10_000,
          fallbackShape: askOptions.fallbackShape,
        },
        request,
      ),
    control: async (method, path, body) => {
      const response = await fetch(`${simulator.url}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body:
          body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    },
    close: () => simulator.close(),
  };
}

/** Part numbers of one product type in one country, from the seed catalog. */
export function listPartNumbers(countryCode: string, productId: string): string[] {
  return PRODUCT_MODEL_SEEDS.filter(
    (model) => model.country_code === countryCode && model.product_id === productId,
  ).map((model) => model.part_number);
}

/** Display name of a seeded model. */
export function getDisplayName(countryCode: string, partNumber: string): string | undefined {
  return PRODUCT_MODEL_SEEDS.find(
    (model) => model.country_code === countryCode && model.part_number === partNumber,
  )?.display_name;
}

/** Unwraps a successful answer, failing the test with the failure's story otherwise. */
export function expectAnswer(result: UpstreamResult<PickupAnswer>): PickupAnswer {
  if (!result.ok)
    throw new Error(`Expected stores, got ${result.failure.kind}: ${result.failure.message}`);
  return result.value;
}
