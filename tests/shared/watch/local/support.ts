// Test support for the local watch loop: a watcher over the upstream simulator with one
// hand-moved clock for both, recorded timers, alerts, check lines and saved state.
import type { DesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import type { LocalSearch } from '#shared/desktop/local-search.ts';
import { createTokenBucketLimiter, type TokenBucketLimiter } from '#shared/upstream/index.ts';
import {
  createLocalWatcher,
  type LocalAlert,
  type LocalCheckLog,
  type LocalWatchSettings,
  type LocalWatchState,
} from '#shared/watch/local/index.ts';
import type { SimulatorHarness } from '#tests/server/simulator/support.ts';

/** A clock shared by the watcher and the simulator. */
export type SharedClock = { now: () => number; advance: (ms: number) => void };

/** Creates a clock that moves the simulator's with it. */
export function createSharedClock(sim: SimulatorHarness, startMs: number): SharedClock {
  let clock = startMs;
  return {
    now: () => clock,
    advance: (ms) => {
      clock += ms;
      sim.advanceClock(ms);
    },
  };
}

/** A watcher over the simulator; the rate limiter is a roomy one unless given. */
export function createWatcherHarness(
  sim: SimulatorHarness,
  clock: SharedClock,
  options: {
    searches: LocalSearch[];
    catalog: DesktopCatalog;
    settings?: Partial<LocalWatchSettings>;
    state?: unknown;
    rateLimiter?: TokenBucketLimiter;
    /** Most parts in one request (the loop's default unless set). */
    partsPerRequest?: number;
  },
) {
  const alerts: LocalAlert[] = [];
  const lines: LocalCheckLog[] = [];
  const timers: number[] = [];
  let saved: LocalWatchState | undefined;
  const settings: LocalWatchSettings = {
    intervalMinutes: 5,
    isNotifying: true,
    defaultMaxDistanceMiles: null,
    ...options.settings,
  };
  const watcher = createLocalWatcher({
    fetch,
    now: clock.now,
    random: () => 0.5,
    setTimer: (_fn, ms) => {
      timers.push(ms);
      return () => undefined;
    },
    rateLimiter:
      options.rateLimiter ??
      createTokenBucketLimiter({
        capacity: 100,
        refillPerSecond: 100,
        now: clock.now,
        sleep: () => Promise.resolve(),
      }),
    baseUrl: sim.simulator.url,
    shape: 'pickup-message',
    partsPerRequest: options.partsPerRequest,
    catalog: options.catalog,
    listSearches: () => options.searches,
    getSettings: () => settings,
    loadState: () => options.state,
    saveState: (state) => {
      saved = structuredClone(state);
    },
    notify: (alert) => alerts.push(alert),
    onCheck: (line) => lines.push(line),
  });
  return { watcher, alerts, lines, timers, settings, getSaved: () => saved };
}

/** The simulator's request counters. */
export type SimulatorCounts = {
  count: number;
  pickup_message: number;
  fulfillment_messages: number;
  answered_541: number;
};

/** Reads the simulator's request counters. */
export async function readSimulatorCounts(sim: SimulatorHarness): Promise<SimulatorCounts> {
  return (await sim.control('GET', '/_sim/requests')).json as SimulatorCounts;
}
