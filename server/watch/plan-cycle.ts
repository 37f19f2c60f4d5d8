import { listNearestNeighbourIds } from '#server/db/repositories/availability-repository.ts';
import { listGroupDemand } from '#server/db/repositories/group-demand-repository.ts';
import {
  saveWatchFreshness,
  summariseLiveWorkers,
} from '#server/db/repositories/watch-workers-repository.ts';
import {
  listPollTargets,
  listUpstreamHosts,
  pruneUpstreamRequests,
  syncPollTargets,
} from '#server/db/repositories/watch-repository.ts';
import {
  computeFreshnessSchedule,
  formatGroupKey,
  isAlertingGroup,
  planCycle,
  type CyclePlan,
  type FreshnessSchedule,
  type PollGroupKey,
} from '#shared/watch/index.ts';
import { pollGroup, toTargetState, type PollOutcome, type PollerDeps } from './poll-group.ts';

/** Stores an answer lists besides the asked one (Apple lists about a dozen, nearest first). */
const EXPECTED_NEIGHBOURS_PER_ANSWER = 11;
/** How long the upstream request log is kept (the status page reads the last 15 minutes). */
const REQUEST_LOG_RETENTION_MS = 24 * 60 * 60_000;

/** A worker not seen for this long no longer counts towards the request budget. */
export const WORKER_LIVENESS_MS = 2 * 60_000;

/** A planned cycle: when it started, its groups, and the freshness its budget gives. */
export type PlannedCycle = {
  cycleStartedAt: number;
  plan: CyclePlan;
  targetCount: number;
  /** Undefined when no worker declared a budget (one-shot runs): every group every cycle. */
  schedule: FreshnessSchedule | undefined;
};

/**
 * Syncs poll targets with the saved searches and plans a cycle starting now. The request
 * budget is the sum of the live workers' declared budgets (watch_workers); the schedule it
 * gives is saved for /v2/status.
 */
export async function planWatchCycle(
  deps: Pick<PollerDeps, 'db' | 'now' | 'baseUrl' | 'intervalMs'>,
): Promise<PlannedCycle> {
  const cycleStartedAt = deps.now();
  const targetCount = await syncPollTargets(deps.db, new Date(cycleStartedAt));
  const [rows, hosts, demandRows, live] = await Promise.all([
    listPollTargets(deps.db),
    listUpstreamHosts(deps.db),
    listGroupDemand(deps.db),
    summariseLiveWorkers(deps.db, new Date(cycleStartedAt - WORKER_LIVENESS_MS)),
  ]);
  const demandByGroup = new Map(
    demandRows.map((row) => [
      formatGroupKey({
        countryCode: row.country_code,
        productId: row.product_id,
        storeId: row.store_id,
      }),
      {
        alertingSearches: row.alerting_searches,
        searches: row.searches,
        launchRank: row.launch_rank,
      },
    ]),
  );
  const targets = rows.map((row) => {
    const target = toTargetState(row, deps.baseUrl);
    const demand = demandByGroup.get(formatGroupKey(target));
    return demand === undefined ? target : { ...target, demand };
  });
  const alertingGroups = targets.filter(isAlertingGroup).length;
  const schedule =
    live.workers === 0
      ? undefined
      : computeFreshnessSchedule({
          budgetPerMinute: live.budgetPerMinute,
          intervalMs: deps.intervalMs,
          alertingGroups,
          pageOnlyGroups: targets.length - alertingGroups,
        });
  if (schedule !== undefined) {
    await saveWatchFreshness(deps.db, {
      planned_at: new Date(cycleStartedAt),
      interval_ms: deps.intervalMs,
      workers: live.workers,
      budget_per_minute: live.budgetPerMinute,
      alerting_groups: alertingGroups,
      page_only_groups: targets.length - alertingGroups,
      alerting_fresh_within_ms: schedule.alertingFreshWithinMs,
      all_fresh_within_ms: schedule.allFreshWithinMs,
    });
  }
  const coolDownUntilByHost = new Map(
    hosts
      .filter((host) => host.cool_down_until !== null)
      .map((host) => [host.host, host.cool_down_until!.getTime()]),
  );
  const neighbourIdsByStore = await listNearestNeighbourIds(
    deps.db,
    [...new Set(targets.map((target) => target.storeId))],
    EXPECTED_NEIGHBOURS_PER_ANSWER,
  );
  const plan = planCycle(
    targets,
    { now: cycleStartedAt, cycleStartedAt, coolDownUntilByHost },
    { neighbourIdsByStore, intervalMs: deps.intervalMs, schedule },
  );
  await pruneUpstreamRequests(deps.db, new Date(cycleStartedAt - REQUEST_LOG_RETENTION_MS));
  return { cycleStartedAt, plan, targetCount, schedule };
}

/** Totals of a cycle run in this process. */
export type CycleReport = {
  cycleStartedAt: number;
  groups: number;
  requests: number;
  polled: number;
  failed: number;
  skipped: Record<string, number>;
  alertsEnqueued: number;
};

/** Folds one poll outcome into a cycle report. */
export function countOutcome(report: CycleReport, outcome: PollOutcome): void {
  if (outcome.kind === 'polled') {
    report.requests += 1;
    report.polled += 1;
    report.alertsEnqueued += outcome.report.alertsEnqueued;
  } else if (outcome.kind === 'failed') {
    report.requests += 1;
    report.failed += 1;
  } else {
    report.skipped[outcome.reason] = (report.skipped[outcome.reason] ?? 0) + 1;
  }
}

/**
 * Plans and runs a whole cycle in this process, one group after another, stalest first.
 * The pg-boss poller spreads the same work over workers; this form serves tests, the
 * benchmark and one-shot checks.
 */
export async function runWatchCycle(deps: PollerDeps): Promise<CycleReport> {
  const { cycleStartedAt, plan, targetCount } = await planWatchCycle(deps);
  const report: CycleReport = {
    cycleStartedAt,
    groups: targetCount,
    requests: 0,
    polled: 0,
    failed: 0,
    skipped: {},
    alertsEnqueued: 0,
  };
  for (const skipped of plan.skipped) {
    report.skipped[skipped.reason] = (report.skipped[skipped.reason] ?? 0) + 1;
  }
  for (const target of plan.due) {
    const group: PollGroupKey = {
      countryCode: target.countryCode,
      productId: target.productId,
      storeId: target.storeId,
    };
    countOutcome(report, await pollGroup(deps, group, cycleStartedAt));
  }
  return report;
}

/** Singleton key of a group's poll job: one queued and one running per group at most. */
export function formatPollJobKey(group: PollGroupKey): string {
  return formatGroupKey(group);
}
