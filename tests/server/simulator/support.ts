// Test support for the simulator: a running simulator on a free port with a hand-moved clock,
// the real upstream client pointed at it, and plain HTTP from chosen loopback addresses.
import { Agent } from 'undici';
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
  type SimulatorBehaviour,
} from '#server/simulator/index.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';

/** A fixed instant the tests start their clocks at. */
export const START_MS = Date.UTC(2026, 0, 15, 12, 0, 0);

/**
 * A browser's User-Agent: without one the simulator answers 503, as Apple did in 2025. No
 * Referer: 2026 checkers get answers without one (../shared/reference/apple/README.md).
 */
export const BROWSER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'User-Agent':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
});

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
  /**
   * GETs a simulator path from a loopback source address ("127.0.0.2"; the default route,
   * 127.0.0.1, when omitted), as a separate egress address would, with BROWSER_HEADERS
   * unless `headers` replaces them.
   */
  getFrom: (
    path: string,
    options?: { address?: string; headers?: Record<string, string> },
  ) => Promise<{ status: number; contentType: string | null; text: string }>;
  close: () => Promise<void>;
};

/** Starts the simulator over the curated seed catalog on a free loopback port. */
export async function startSimulatorHarness(
  options: {
    seed?: number;
    changeEverySeconds?: number;
    startMs?: number;
    /** Apple today unless set; LEGACY_SIMULATOR_BEHAVIOUR for the 2021-2024 service. */
    behaviour?: Partial<SimulatorBehaviour>;
    /** Address the simulator listens on; "localhost" unless set. */
    host?: string;
  } = {},
): Promise<SimulatorHarness> {
  let nowMs = options.startMs ?? START_MS;
  // undici's Agent takes the source address as `localAddress` itself; one under `connect`
  // is overwritten by the client's own (unset) localAddress and silently ignored.
  const agents = new Map<string, Agent>();
  const simulator = await startUpstreamSimulator({
    ...options.behaviour,
    port: await getFreePort(),
    host: options.host,
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
      // The aliases are IPv4, so the simulator is asked on its IPv4 loopback address.
      const response = await fetch(`http://127.0.0.1:${simulator.port}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body:
          body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    },
    getFrom: async (path, fromOptions = {}) => {
      const address = fromOptions.address ?? '127.0.0.1';
      let agent = agents.get(address);
      if (agent === undefined) {
        agent = new Agent({ localAddress: address });
        agents.set(address, agent);
      }
      const response = await fetch(`${simulator.url}${path}`, {
        headers: { ...BROWSER_HEADERS, ...fromOptions.headers },
        dispatcher: agent,
      } as RequestInit);
      return {
        status: response.status,
        contentType: response.headers.get('content-type'),
        text: await response.text(),
      };
    },
    close: async () => {
      await Promise.all([...agents.values()].map(async (agent) => agent.close()));
      await simulator.close();
    },
  };
}

/** The first `count` part numbers sold in a country, across product types. */
export function listCountryParts(countryCode: string, count: number): string[] {
  return PRODUCT_MODEL_SEEDS.filter((model) => model.country_code === countryCode)
    .slice(0, count)
    .map((model) => model.part_number);
}

/** A real part number sold in `countryCode` but not in `notIn`. */
export function findForeignPart(countryCode: string, notIn: string): string {
  const local = new Set(listCountryParts(notIn, Number.MAX_SAFE_INTEGER));
  const part = PRODUCT_MODEL_SEEDS.find(
    (model) => model.country_code === countryCode && !local.has(model.part_number),
  )?.part_number;
  if (part === undefined) throw new Error(`No part of ${countryCode} is missing from ${notIn}`);
  return part;
}

/** Builds a pickup query string: parts.N in order, then the other fields. */
export function buildPickupQuery(parts: readonly string[], fields: Record<string, string>): string {
  const query = new URLSearchParams({ pl: 'true', 'mts.0': 'regular' });
  parts.forEach((part, index) => query.set(`parts.${index}`, part));
  for (const [name, value] of Object.entries(fields)) query.set(name, value);
  return query.toString();
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
