// Test support for the local watch loop: a watcher over the upstream simulator with one
// hand-moved clock for both, recorded timers (run only when a test fires one), notifications,
// check lines, request times and saved state, and the machine's budget in memory (the hosts
// keep it in a locked file).
import type { DesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import type { LocalSearch } from '#shared/desktop/local-search.ts';
import type { RequestPacing } from '#shared/upstream/index.ts';
import {
  createLocalWatcher,
  createRequestBudget,
  type BudgetStore,
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

/** A budget store in memory, one change at a time, kept as text as a file keeps it. */
export function createMemoryBudgetStore(): BudgetStore & { read: () => unknown } {
  let text: string | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    update: <T>(change: (current: unknown) => { stored: unknown; result: T }): Promise<T> => {
      const next = queue.then(() => {
        const changed = change(text === undefined ? undefined : JSON.parse(text));
        text = JSON.stringify(changed.stored);
        return changed.result;
      });
      queue = next.catch(() => undefined);
      return next;
    },
    read: (): unknown => (text === undefined ? undefined : JSON.parse(text)),
  };
}

/** A timer the watcher set: when it would fire by the shared clock, and what it runs. */
export type RecordedTimer = { at: number; ms: number; fire: () => void; isCancelled: boolean };

/** Pacing roomy enough that only the tests about pacing meet it. */
export const ROOMY_PACING: RequestPacing = { burst: 60, ratePerMinute: 600, minGapMs: 0 };

/**
 * A watcher over the simulator. Its budget is a roomy one of its own unless given a store (the
 * machine's, shared with other watchers) or pacing; waiting out a gap moves the clock.
 */
export function createWatcherHarness(
  sim: SimulatorHarness,
  clock: SharedClock,
  options: {
    searches: LocalSearch[];
    catalog: DesktopCatalog;
    settings?: Partial<LocalWatchSettings>;
    state?: unknown;
    budgetStore?: BudgetStore;
    pacing?: RequestPacing;
    /** Most parts in one request (the loop's default unless set). */
    partsPerRequest?: number;
  },
) {
  const alerts: LocalAlert[] = [];
  /** One entry per notification shown: the search's alerts released together. */
  const notifications: LocalAlert[][] = [];
  const scheduled: RecordedTimer[] = [];
  const lines: LocalCheckLog[] = [];
  const timers: number[] = [];
  /** When each HTTP request went out, by the shared clock. */
  const sentAt: number[] = [];
  let saved: LocalWatchState | undefined;
  const settings: LocalWatchSettings = {
    intervalMinutes: 5,
    isNotifying: true,
    defaultMaxDistanceMiles: null,
    ...options.settings,
  };
  const watcher = createLocalWatcher({
    fetch: (url, init) => {
      sentAt.push(clock.now());
      return fetch(url, init);
    },
    now: clock.now,
    random: () => 0.5,
    setTimer: (fn, ms) => {
      timers.push(ms);
      const timer: RecordedTimer = { at: clock.now() + ms, ms, fire: fn, isCancelled: false };
      scheduled.push(timer);
      return () => {
        timer.isCancelled = true;
      };
    },
    budget: createRequestBudget({
      store: options.budgetStore ?? createMemoryBudgetStore(),
      baseUrl: sim.simulator.url,
      pacing: options.pacing ?? ROOMY_PACING,
      now: clock.now,
      sleep: (ms) => {
        clock.advance(ms);
        return Promise.resolve();
      },
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
    notify: (_searchId, batch) => {
      notifications.push(batch);
      alerts.push(...batch);
    },
    onCheck: (line) => lines.push(line),
  });
  return {
    watcher,
    alerts,
    notifications,
    lines,
    timers,
    scheduled,
    sentAt,
    settings,
    getSaved: () => saved,
  };
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
