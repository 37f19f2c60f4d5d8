import type { DesktopWatchStatus, LocalSearch } from '#shared/desktop/local-search.ts';
import { clampCheckIntervalMinutes } from '#shared/desktop/local-search.ts';
import {
  computeBackoff,
  fetchPickupAvailability,
  resolveCountryBase,
  type EndpointShape,
  type FetchLike,
  type TokenBucketLimiter,
  type UpstreamFailure,
} from '#shared/upstream/index.ts';
import {
  applyCoverage,
  decidePoll,
  formatGroupKey,
  groupSearches,
  planCycle,
  type PollGroupKey,
  type PollTargetState,
} from '#shared/watch/planner.ts';
import { applyAnswer, type LocalAlert, type LocalWatchCatalog } from './observe.ts';
import { parseWatchState, type LocalTarget, type LocalWatchState } from './state.ts';
import {
  buildHistory,
  buildInventory,
  countStoresWithInventory,
  type ViewContext,
} from './views.ts';

/** One line per upstream check, for logs and the terminal watcher. */
export type LocalCheckLog = {
  at: number;
  group: PollGroupKey;
  result: 'ok' | 'failed' | 'skipped';
  detail: string;
  changes: number;
  alerts: number;
};

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
  rateLimiter: TokenBucketLimiter;
  baseUrl: string;
  shape: EndpointShape;
  catalog: LocalWatchCatalog;
  listSearches: () => readonly LocalSearch[];
  getSettings: () => LocalWatchSettings;
  loadState: () => unknown;
  saveState: (state: LocalWatchState) => void;
  notify: (alert: LocalAlert) => void;
  onStatus?: (status: DesktopWatchStatus) => void;
  onCheck?: (line: LocalCheckLog) => void;
};

/** What one cycle did. */
export type LocalCycleReport = {
  requests: number;
  alerts: LocalAlert[];
  failures: number;
  skipped: number;
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
  buildInventory: (search: LocalSearch) => ReturnType<typeof buildInventory>;
  buildHistory: (search: LocalSearch, days: number) => ReturnType<typeof buildHistory>;
  countStoresWithInventory: (search: LocalSearch) => number;
};

const DEFAULT_QUIET_WINDOW_MINUTES = 30;
const MAX_BACKOFF_MS = 30 * 60_000;
const EMPTY_REPORT: LocalCycleReport = { requests: 0, alerts: [], failures: 0, skipped: 0 };

/** A failure in words a user can act on (the tray, My Searches, the terminal). */
export function describeFailure(failure: UpstreamFailure): string {
  switch (failure.kind) {
    case 'blocked':
      return `Apple is refusing requests for a while (HTTP ${failure.httpStatus ?? '?'})`;
    case 'html':
      return 'Apple answered with a web page instead of stock data';
    case 'malformed':
    case 'upstream_error':
      return 'Apple sent an answer that could not be read';
    case 'invalid_parts':
      return 'Apple says a watched model is invalid or not sold there';
    case 'implausible':
      return 'Apple reported even its most common model unavailable everywhere: the answer was not believed';
    case 'network':
      return "Apple's servers could not be reached (offline?)";
    case 'http':
      return `Apple answered HTTP ${failure.httpStatus ?? '?'}`;
  }
}

/** Creates the loop; nothing runs until `start`, `checkNow` or `runOnce`. */
export function createLocalWatcher(deps: LocalWatchDeps): LocalWatcher {
  const state = parseWatchState(deps.loadState());
  let isPaused = false;
  let isStarted = false;
  let running: Promise<LocalCycleReport> | null = null;
  let cancelTimer: (() => void) | null = null;
  let nextCheckAt: number | null = null;

  const intervalMs = () => clampCheckIntervalMinutes(deps.getSettings().intervalMinutes) * 60_000;
  const hostOf = (countryCode: string) =>
    new URL(resolveCountryBase(deps.baseUrl, countryCode)).host;
  const activeCoolDowns = (now: number) =>
    new Map(Object.entries(state.cool_downs).filter(([, until]) => until > now));

  const getStatus = (): DesktopWatchStatus => {
    const now = deps.now();
    const coolDowns = [...activeCoolDowns(now).values()];
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
      cool_down_until:
        coolDowns.length === 0 ? null : new Date(Math.max(...coolDowns)).toISOString(),
      search_count: searchCount,
    };
  };
  const reportStatus = () => deps.onStatus?.(getStatus());

  /** Keeps one target per group of the current searches; drops the others. */
  const syncTargets = (searches: readonly LocalSearch[], now: number): PollTargetState[] => {
    const keyed = searches.flatMap((search) => {
      const store = deps.catalog.findStore(search.store_id);
      return store === undefined
        ? []
        : [
            {
              countryCode: store.country_code,
              productId: search.product_type,
              storeId: search.store_id,
            },
          ];
    });
    const groups = groupSearches(keyed);
    for (const key of Object.keys(state.targets)) if (!groups.has(key)) delete state.targets[key];
    for (const [key, { key: group }] of groups) {
      state.targets[key] ??= {
        country_code: group.countryCode,
        product_id: group.productId,
        store_id: group.storeId,
        last_requested_at: null,
        last_covered_at: null,
        next_due_at: now,
        consecutive_failures: 0,
        last_failure_at: null,
        last_failure_message: null,
      };
    }
    return Object.values(state.targets).map(toTargetState);
  };
  const toTargetState = (target: LocalTarget): PollTargetState => ({
    countryCode: target.country_code,
    productId: target.product_id,
    storeId: target.store_id,
    host: hostOf(target.country_code),
    lastRequestedAt: target.last_requested_at,
    lastCoveredAt: target.last_covered_at,
    nextDueAt: target.next_due_at,
  });

  const pollGroup = async (
    group: PollTargetState,
    searches: readonly LocalSearch[],
    report: LocalCycleReport,
  ) => {
    const key = formatGroupKey(group);
    const target = state.targets[key];
    const models = deps.catalog.listModels(group.productId, group.countryCode);
    if (target === undefined || models.length === 0) return;
    const startedAt = deps.now();
    const result = await fetchPickupAvailability(
      {
        fetch: deps.fetch,
        now: deps.now,
        rateLimiter: deps.rateLimiter,
        baseUrl: deps.baseUrl,
        shape: deps.shape,
      },
      {
        countryCode: group.countryCode,
        storeNumber: group.storeId,
        partNumbers: models.map((model) => model.part_number),
        searchNearby: true,
      },
    );
    report.requests += 1;
    const finishedAt = deps.now();
    target.last_requested_at = startedAt;
    if (!result.ok) {
      const { failure } = result;
      const coolDownMs = failure.coolDownSeconds * 1000;
      if (coolDownMs > 0) {
        deps.rateLimiter.pauseHost(group.host, coolDownMs);
        state.cool_downs[group.host] = finishedAt + coolDownMs;
      }
      const backoffMs = computeBackoff(
        target.consecutive_failures,
        { baseMs: intervalMs(), maxMs: MAX_BACKOFF_MS },
        deps.random,
      );
      target.consecutive_failures += 1;
      target.last_failure_at = finishedAt;
      target.last_failure_message = describeFailure(failure);
      target.next_due_at = finishedAt + Math.max(backoffMs, coolDownMs);
      state.failing_since ??= finishedAt;
      state.failure_message = describeFailure(failure);
      report.failures += 1;
      deps.onCheck?.({
        at: finishedAt,
        group,
        result: 'failed',
        detail: failure.message,
        changes: 0,
        alerts: 0,
      });
      return;
    }
    target.consecutive_failures = 0;
    target.next_due_at = finishedAt;
    const settings = deps.getSettings();
    const { changes, alerts } = applyAnswer(state, group, result.value, searches, deps.catalog, {
      quietWindowMs: (settings.quietWindowMinutes ?? DEFAULT_QUIET_WINDOW_MINUTES) * 60_000,
      defaultMaxDistanceMiles: settings.defaultMaxDistanceMiles,
    });
    const covered = applyCoverage(Object.values(state.targets).map(toTargetState), {
      countryCode: group.countryCode,
      productId: group.productId,
      storeIds: result.value.stores.map((store) => store.storeNumber),
      observedAt: result.value.observedAt,
    });
    for (const coveredTarget of covered) {
      const stored = state.targets[formatGroupKey(coveredTarget)];
      if (stored !== undefined) stored.last_covered_at = coveredTarget.lastCoveredAt;
    }
    for (const alert of alerts) {
      report.alerts.push(alert);
      if (settings.isNotifying) deps.notify(alert);
    }
    deps.onCheck?.({
      at: finishedAt,
      group,
      result: 'ok',
      detail: `${result.value.stores.length} stores`,
      changes,
      alerts: alerts.length,
    });
  };

  const runCycle = async (): Promise<LocalCycleReport> => {
    const report: LocalCycleReport = { requests: 0, alerts: [], failures: 0, skipped: 0 };
    const searches = deps.listSearches();
    const cycleStartedAt = deps.now();
    const targets = syncTargets(searches, cycleStartedAt);
    if (targets.length === 0) return report;
    const neighbourIdsByStore = new Map(
      Object.entries(state.neighbours).map(([storeId, list]) => [
        storeId,
        list.map((n) => n.store_id),
      ]),
    );
    const plan = planCycle(
      targets,
      { now: cycleStartedAt, cycleStartedAt, coolDownUntilByHost: activeCoolDowns(cycleStartedAt) },
      { neighbourIdsByStore, intervalMs: intervalMs() },
    );
    for (const { target, reason } of plan.skipped) {
      report.skipped += 1;
      deps.onCheck?.({
        at: cycleStartedAt,
        group: target,
        result: 'skipped',
        detail: reason,
        changes: 0,
        alerts: 0,
      });
    }
    for (const planned of plan.due) {
      // Just in time: a neighbour's answer or a block earlier in this cycle may have settled it.
      const current = state.targets[formatGroupKey(planned)];
      if (current === undefined) continue;
      const now = deps.now();
      const decision = decidePoll(toTargetState(current), {
        now,
        cycleStartedAt,
        coolDownUntilByHost: activeCoolDowns(now),
      });
      if (decision.action === 'skip') {
        report.skipped += 1;
        deps.onCheck?.({
          at: now,
          group: planned,
          result: 'skipped',
          detail: decision.reason,
          changes: 0,
          alerts: 0,
        });
        continue;
      }
      await pollGroup(planned, searches, report);
    }
    state.last_check_at = deps.now();
    const isStillFailing =
      Object.values(state.targets).some((target) => target.consecutive_failures > 0) ||
      activeCoolDowns(state.last_check_at).size > 0;
    if (!isStillFailing) {
      state.failing_since = null;
      state.failure_message = null;
    }
    return report;
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
    const coolDowns = activeCoolDowns(now);
    return {
      state,
      catalog: deps.catalog,
      now,
      defaultMaxDistanceMiles: deps.getSettings().defaultMaxDistanceMiles,
      staleAfterMs: 3 * intervalMs(),
      isHostCoolingDown: (countryCode) => coolDowns.has(hostOf(countryCode)),
    };
  };

  return {
    start: () => {
      isStarted = true;
      schedule(0);
      reportStatus();
    },
    stop: () => {
      isStarted = false;
      cancelTimer?.();
      cancelTimer = null;
      nextCheckAt = null;
    },
    pause: () => {
      isPaused = true;
      cancelTimer?.();
      cancelTimer = null;
      nextCheckAt = null;
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
    buildInventory: (search) => buildInventory(search, viewContext()),
    buildHistory: (search, days) => buildHistory(search, days, viewContext()),
    countStoresWithInventory: (search) => countStoresWithInventory(search, viewContext()),
  };
}
