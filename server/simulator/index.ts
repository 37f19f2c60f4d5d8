import Fastify, { type FastifyError } from 'fastify';
import type { CountrySeed, ProductModelSeed, StoreSeed } from '#shared/catalog/index.ts';
import type { KnownPickupStatus } from '#shared/upstream/index.ts';
import { createAddressBudget, type AddressCounts } from './address-budget.ts';
import { registerBagPageRoutes } from './bag-page.ts';
import { registerBuyPageRoutes } from './buy-pages.ts';
import { registerControlRoutes, sendError } from './control-routes.ts';
import { registerPickupRoutes } from './pickup-routes.ts';
import { createStoreListState, registerStoreListRoutes } from './store-list.ts';
import { buildSimCatalog } from './sim-catalog.ts';
import { createSimulatorState, FAULT_KINDS, type FaultKind } from './sim-state.ts';
import {
  resolveSimulatorBehaviour,
  type SimulatorBehaviour,
} from '#server/config/simulator-settings.ts';
import { DEFAULT_CHANGE_EVERY_SECONDS } from './stock-schedule.ts';

export { FAULT_KINDS, type FaultKind } from './sim-state.ts';
export { DEFAULT_CHANGE_EVERY_SECONDS, getScheduledStatus } from './stock-schedule.ts';
export { measureDistanceKm } from './sim-catalog.ts';
export { normalizeCallerAddress, type AddressCounts } from './address-budget.ts';
export { NEARBY_STORE_LIMIT } from './pickup-routes.ts';
export {
  DEFAULT_SIMULATOR_BEHAVIOUR,
  LEGACY_SIMULATOR_BEHAVIOUR,
  type FulfillmentMessagesMode,
  type SimulatorBehaviour,
} from '#server/config/simulator-settings.ts';
export { STORE_SEARCH_ERROR_MESSAGE } from './wire-format.ts';
export { ANSWERED_PARTS_LIMIT } from './answer-parts.ts';
export { DEFAULT_MISSING_DIRECTORY_LOCALES } from './store-list.ts';

/**
 * How to start the simulator; the catalog seeds decide what exists. The behaviour fields
 * (fulfillmentMessages, blockAfterRequests, blockWindowSeconds, blockSeconds) default to
 * Apple today (DEFAULT_SIMULATOR_BEHAVIOUR); spread LEGACY_SIMULATOR_BEHAVIOUR for the
 * 2021-2024 service with no per-address block.
 */
export type UpstreamSimulatorOptions = Partial<SimulatorBehaviour> & {
  port: number;
  /** Defaults to "localhost": loopback only, on every address localhost names. */
  host?: string;
  /** Stock schedule seed; the same seed and clock always give the same shelves. Default 1. */
  seed?: number;
  stores: readonly StoreSeed[];
  models: readonly ProductModelSeed[];
  countries: readonly CountrySeed[];
  /** Clock for the stock schedule, fault expiry and the per-address block; defaults to Date.now. */
  now?: () => number;
  /** Length of one stock bucket; defaults to DEFAULT_CHANGE_EVERY_SECONDS. */
  changeEverySeconds?: number;
  /** Locales whose store-list answers 404; DEFAULT_MISSING_DIRECTORY_LOCALES (Thailand) when unset. */
  missingDirectoryLocales?: readonly string[];
};

/** A running simulator and the control API's operations, for in-process callers. */
export type RunningUpstreamSimulator = {
  /** Base URL to give the upstream client, e.g. "http://localhost:4010". */
  url: string;
  port: number;
  /** The behaviour in force, defaults filled in. */
  behaviour: SimulatorBehaviour;
  /** Sets a status now, overriding the schedule; throws RangeError for an unknown store or part. */
  setStatus(storeId: string, partNumber: string, status: KnownPickupStatus): void;
  /** Makes every pickup request fail this way for `seconds`, by the simulator's clock. */
  injectFault(kind: FaultKind, seconds: number): void;
  /** Ends any fault now. */
  clearFault(): void;
  /** Pickup requests received so far, whatever they were answered with. */
  getRequestCount(): number;
  /** Counts per caller address ("127.0.0.2"), including its 541 answers and block. */
  getAddressCounts(): Map<string, AddressCounts>;
  /** Lifts every per-address block and forgets the counts; returns how many blocks were lifted. */
  liftBlocks(): number;
  close(): Promise<void>;
};

// Control bodies are a few fields; nothing legitimate comes close to this.
const BODY_LIMIT_BYTES = 4 * 1024;

/** Starts the upstream simulator: Apple's two pickup endpoints plus the /_sim control API. */
export async function startUpstreamSimulator(
  options: UpstreamSimulatorOptions,
): Promise<RunningUpstreamSimulator> {
  const behaviour = resolveSimulatorBehaviour(options);
  const catalog = buildSimCatalog(options.stores, options.models, options.countries);
  const now = options.now ?? Date.now;
  const state = createSimulatorState({
    seed: options.seed ?? 1,
    changeEverySeconds: options.changeEverySeconds ?? DEFAULT_CHANGE_EVERY_SECONDS,
    now,
  });
  const budget = createAddressBudget({ now, ...behaviour });
  const closing = new AbortController();
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT_BYTES, forceCloseConnections: true });
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const statusCode =
      typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    // Fastify's own 4xx: unreadable JSON, wrong content type, body over the limit.
    if (statusCode < 500)
      return sendError(reply, statusCode, 'invalid_input', error.message, 'body');
    return sendError(reply, 500, 'internal_error', 'Simulator error');
  });
  const directory = createStoreListState({
    stores: options.stores,
    countries: options.countries,
    missingLocales: options.missingDirectoryLocales,
  });
  registerControlRoutes(app, { catalog, state, budget, behaviour, directory });
  registerStoreListRoutes(app, { directory });
  registerPickupRoutes(app, { catalog, state, budget, behaviour, closing: closing.signal });
  registerBuyPageRoutes(app, { models: options.models });
  registerBagPageRoutes(app, { catalog });
  app.addHook('onClose', async () => closing.abort());

  const host = options.host ?? 'localhost';
  await app.listen({ port: options.port, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const urlHost =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    behaviour,
    setStatus: (storeId, partNumber, status) => {
      const store = catalog.findAnyStore(storeId);
      if (store === undefined) throw new RangeError(`No seeded store ${storeId}`);
      if (catalog.findModel(store.countryCode, partNumber) === undefined) {
        throw new RangeError(`Part ${partNumber} is not sold in ${store.countryCode}`);
      }
      state.setOverride(store.store_id, partNumber.trim(), status);
    },
    injectFault: (kind, seconds) => {
      if (!FAULT_KINDS.includes(kind) || !(seconds > 0))
        throw new RangeError(`Bad fault ${kind} for ${seconds} s`);
      state.setFault(kind, seconds);
    },
    clearFault: () => {
      state.clearFault();
    },
    getRequestCount: () => state.getRequestCounts().total,
    getAddressCounts: () => budget.listAddresses(),
    liftBlocks: () => budget.reset(),
    close: async () => {
      closing.abort();
      await app.close();
    },
  };
}
