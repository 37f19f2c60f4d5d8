import type { DesktopWatchStatus, LocalSearch } from '#shared/desktop/local-search.ts';
import { clampCheckIntervalMinutes } from '#shared/desktop/local-search.ts';
import type { EndpointShape, FetchLike } from '#shared/upstream/index.ts';
import { DEFAULT_PARTS_PER_REQUEST } from '#shared/watch/engine/engine-limits.ts';
import { runCheckCycle } from './check-cycle.ts';
import { describeFailure, type LocalCheckLog, type LocalCycleReport } from './check-deps.ts';
import { findNextRelease, releaseDueAlerts } from './local-cadence.ts';
import type { LocalWatchCatalog } from './local-catalog.ts';
import type { LocalAlert } from './observe.ts';
import type { RequestBudget } from './request-budget.ts';
import { parseWatchState, type LocalWatchState } from './state.ts';
import {
  buildHistory,
  buildInventory,
  countStoresWithInventory,
  type ViewContext,
} from './views.ts';

/** The settings the loop reads before every cycle. */
export type LocalWatchSettings = {
  intervalMinutes: number;
  isNotifying: boolean;
  defaultMaxDistanceMiles: number | null;
  quietWindowMinutes?: number;
};

/** Everything the loop needs from its host, injected so it stays pure and testable. */
export type LocalWatchDeps = {
  fetch: FetchLike;
  now: () => number;
  random: () => number;
  /** Schedules fn after ms; answers a cancel function. */
  setTimer: (fn: () => void, ms: number) => () => void;
  /**
   * This machine's budget at Apple, shared with its other local watchers: createRequestBudget
   * over the host's file, LOCAL_PACING unless set.
   */
  budget: RequestBudget;
  baseUrl: string;
  /** The endpoint shape asked first; each country then remembers which shape answers. */
  shape: EndpointShape;
  /** Most parts in one request, the control part included (20 unless set). */
  partsPerRequest?: number;
  catalog: LocalWatchCatalog;
  listSearches: () => readonly LocalSearch[];
  getSettings: () => LocalWatchSettings;
  loadState: () => unknown;
  saveState: (state: LocalWatchState) => void;
  /** Shows one notification: a search's alerts released together by its cadence. */
  notify: (searchId: string, alerts: LocalAlert[]) => void;
  /** Every alert as it is raised, before the cadence holds any (the terminal's lines). */
  onAlert?: (alert: LocalAlert) => void;
  onStatus?: (status: DesktopWatchStatus) => void;
  onCheck?: (line: LocalCheckLog) => void;
};

/** The running loop. */
export type LocalWatcher = {
  start: () => void;
  stop: () => void;
  pause: () => void;
  resume: () => Promise<LocalCycleReport>;
  checkNow: () => Promise<LocalCycleReport>;
  reschedule: () => void;
  runOnce: () => Promise<LocalCycleReport>;
  getStatus: () => DesktopWatchStatus;
  /** Saves what the loop knows now, a check in flight included (before a quit ends it). */
  saveNow: () => void;
  buildInventory: (search: LocalSearch) => ReturnType<typeof buildInventory>;
  buildHistory: (search: LocalSearch, days: number) => ReturnType<typeof buildHistory>;
  countStoresWithInventory: (search: LocalSearch) => number;
};

const DEFAULT_QUIET_WINDOW_MINUTES = 30;
/** Parts in one request unless set: the server's UPSTREAM_PARTS_PER_REQUEST default (20). */
export { DEFAULT_PARTS_PER_REQUEST };
const EMPTY_REPORT: LocalCycleReport = {
  requests: 0,
  alerts: [],
  answered: 0,
  failures: 0,
  skipped: 0,
};

/** Creates the loop; nothing runs until `start`, `checkNow` or `runOnce`. */
export function createLocalWatcher(deps: LocalWatchDeps): LocalWatcher {
  const state = parseWatchState(deps.loadState());
  let isPaused = false;
  let isStarted = false;
  let running: Promise<LocalCycleReport> | null = null;
  let cancelTimer: (() => void) | null = null;
  let cancelReleaseTimer: (() => void) | null = null;
  let nextCheckAt: number | null = null;

  const intervalMs = () => clampCheckIntervalMinutes(deps.getSettings().intervalMinutes) * 60_000;
  const coolingDownUntil = (now: number): number | null => {
    const until = state.address.cool_down_until;
    return until !== null && until > now ? until : null;
  };

  const getStatus = (): DesktopWatchStatus => {
    const now = deps.now();
    const coolDown = coolingDownUntil(now);
    const searchCount = deps.listSearches().length;
    return {
      state: isPaused ? 'paused' : running !== null ? 'checking' : 'idle',
      last_check_at:
        state.last_check_at === null ? null : new Date(state.last_check_at).toISOString(),
      next_check_at:
        isPaused || nextCheckAt === null || searchCount === 0
          ? null
          : new Date(nextCheckAt).toISOString(),
      is_failing: state.failing_since !== null,
      failing_since:
        state.failing_since === null ? null : new Date(state.failing_since).toISOString(),
      failure_message: state.failing_since === null ? null : state.failure_message,
      cool_down_until: coolDown === null ? null : new Date(coolDown).toISOString(),
      search_count: searchCount,
    };
  };
  const reportStatus = () => deps.onStatus?.(getStatus());

  const runCycle = async (): Promise<LocalCycleReport> => {
    const settings = deps.getSettings();
    // A state saved before the budget was shared carries its last requests: they count once.
    if (state.recent_requests.length > 0) {
      await deps.budget.recordSent(state.recent_requests);
      state.recent_requests = [];
    }
    const report = await runCheckCycle(
      {
        fetch: deps.fetch,
        now: deps.now,
        random: deps.random,
        budget: deps.budget,
        baseUrl: deps.baseUrl,
        shape: deps.shape,
        partsPerRequest: deps.partsPerRequest ?? DEFAULT_PARTS_PER_REQUEST,
        catalog: deps.catalog,
        intervalMs: intervalMs(),
        quietWindowMs: (settings.quietWindowMinutes ?? DEFAULT_QUIET_WINDOW_MINUTES) * 60_000,
        isNotifying: settings.isNotifying,
        defaultMaxDistanceMiles: settings.defaultMaxDistanceMiles,
        notify: deps.notify,
        onAlert: deps.onAlert,
        onCheck: deps.onCheck,
        describeFailure,
      },
      state,
      deps.listSearches(),
    );
    state.last_check_at = deps.now();
    releaseHeld(settings.isNotifying);
    const isStillFailing =
      Object.values(state.targets).some((target) => target.consecutive_failures > 0) ||
      coolingDownUntil(state.last_check_at) !== null;
    if (!isStillFailing) {
      state.failing_since = null;
      state.failure_message = null;
    }
    return report;
  };

  /** Shows the held notifications that are due, by what the latest answers say. */
  const releaseHeld = (isNotifying: boolean) => {
    for (const batch of releaseDueAlerts(state, deps.listSearches(), deps.now())) {
      if (isNotifying) deps.notify(batch.searchId, batch.alerts);
    }
  };
  // A held notification leaves at its time even when no check falls due then: its own timer.
  const scheduleRelease = () => {
    cancelReleaseTimer?.();
    cancelReleaseTimer = null;
    const releaseAt = findNextRelease(state);
    if (!isStarted || isPaused || releaseAt === null) return;
    cancelReleaseTimer = deps.setTimer(
      () => {
        cancelReleaseTimer = null;
        // A check under way releases it when it ends, with its fresh answers.
        if (running !== null) return;
        releaseHeld(deps.getSettings().isNotifying);
        deps.saveState(state);
        scheduleRelease();
      },
      Math.max(0, releaseAt - deps.now()),
    );
  };

  const runGuarded = (): Promise<LocalCycleReport> => {
    if (running !== null) return running;
    const cycle = runCycle()
      .catch((error: unknown) => {
        // A bug must not stop the watching: report it as a failing check and go on.
        state.failing_since ??= deps.now();
        state.failure_message = `Checking failed: ${error instanceof Error ? error.message : String(error)}`;
        return { ...EMPTY_REPORT, alerts: [] };
      })
      .finally(() => {
        running = null;
        deps.saveState(state);
        scheduleRelease();
        reportStatus();
      });
    running = cycle;
    reportStatus();
    return cycle;
  };

  const schedule = (delayMs: number) => {
    cancelTimer?.();
    cancelTimer = null;
    if (!isStarted || isPaused) {
      nextCheckAt = null;
      return;
    }
    nextCheckAt = deps.now() + delayMs;
    cancelTimer = deps.setTimer(() => {
      cancelTimer = null;
      void tick();
    }, delayMs);
  };
  const scheduleNextInterval = () =>
    schedule(Math.round(intervalMs() * (0.9 + 0.2 * deps.random())));
  const tick = async () => {
    await runGuarded();
    scheduleNextInterval();
    reportStatus();
  };
  const checkNow = async (): Promise<LocalCycleReport> => {
    if (isPaused) return { ...EMPTY_REPORT, alerts: [] };
    const report = await runGuarded();
    if (isStarted && !isPaused) scheduleNextInterval();
    reportStatus();
    return report;
  };

  const viewContext = (): ViewContext => {
    const now = deps.now();
    return {
      state,
      catalog: deps.catalog,
      now,
      defaultMaxDistanceMiles: deps.getSettings().defaultMaxDistanceMiles,
      staleAfterMs: 3 * intervalMs(),
      isCoolingDown: coolingDownUntil(now) !== null,
    };
  };

  return {
    start: () => {
      isStarted = true;
      schedule(0);
      scheduleRelease();
      reportStatus();
    },
    stop: () => {
      isStarted = false;
      cancelTimer?.();
      cancelTimer = null;
      nextCheckAt = null;
      scheduleRelease();
    },
    pause: () => {
      isPaused = true;
      cancelTimer?.();
      cancelTimer = null;
      nextCheckAt = null;
      // What is held leaves with the first check after the pause, by its answers.
      scheduleRelease();
      reportStatus();
    },
    resume: async () => {
      isPaused = false;
      return await checkNow();
    },
    checkNow,
    reschedule: () => {
      if (!isStarted || isPaused || running !== null) return;
      const last = state.last_check_at ?? deps.now();
      schedule(Math.max(0, last + intervalMs() - deps.now()));
      reportStatus();
    },
    runOnce: () => runGuarded(),
    getStatus,
    saveNow: () => deps.saveState(state),
    buildInventory: (search) => buildInventory(search, viewContext()),
    buildHistory: (search, days) => buildHistory(search, days, viewContext()),
    countStoresWithInventory: (search) => countStoresWithInventory(search, viewContext()),
  };
}
