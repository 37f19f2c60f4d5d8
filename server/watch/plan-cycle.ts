import { sql } from 'kysely';
import type { Db } from '#server/db/database.ts';
import { listNearestNeighbourIds } from '#server/db/repositories/availability-repository.ts';
import { listLiveEgressAddresses } from '#server/db/repositories/egress-repository.ts';
import {
  listAlertParts,
  listGroupDemand,
} from '#server/db/repositories/group-demand-repository.ts';
import {
  findBusiestParts,
  listInvalidParts,
  listLocationSeeds,
  listRetiredParts,
} from '#server/db/repositories/upstream-knowledge-repository.ts';
import {
  saveWatchFreshness,
  summariseLiveWorkers,
} from '#server/db/repositories/watch-workers-repository.ts';
import { listPollTargets, syncPollTargets } from '#server/db/repositories/watch-repository.ts';
import { pruneUpstreamRequests } from '#server/db/repositories/upstream-requests-repository.ts';
import {
  computeSweepSchedule,
  countHttpRequests,
  formatTargetKey,
  planAlertRequests,
  topUpAlertRequests,
  planRequests,
  type FreshnessSchedule,
  type PlanTarget,
  type PlannedRequest,
  type RequestPlanContext,
} from '#shared/watch/index.ts';
import {
  chooseCountryControls,
  chooseSeedLocation,
  createPlanContext,
  CONTROL_WINDOW_MS,
  EXPECTED_NEIGHBOURS_PER_ANSWER,
  INVALID_PART_HOLD_MS,
} from '#shared/watch/engine/index.ts';
import type { PollerDeps, RequestJob } from './poll-job.ts';
import { pollRequest, type PollOutcome } from './poll-request.ts';

/** How long the upstream request log is kept (the status page reads the last 15 minutes). */
const REQUEST_LOG_RETENTION_MS = 24 * 60 * 60_000;
/** A worker or address not seen for this long no longer counts towards the request budget. */
export const WORKER_LIVENESS_MS = 2 * 60_000;

/** A planned cycle: when it started, its requests, and the freshness its budget gives. */
export type PlannedCycle = {
  cycleStartedAt: number;
  jobs: RequestJob[];
  /** HTTP requests a sweep of every target takes, and of the alerting ones. */
  sweepRequests: number;
  alertingSweepRequests: number;
  targetCount: number;
  /** Undefined when no address was declared (one-shot runs): every target every cycle. */
  schedule: FreshnessSchedule | undefined;
};

/** Whatever planning reads that is not a target, read once per cycle. */
type PlanningInputs = {
  context: RequestPlanContext;
  controlByCountry: Map<string, string>;
  locationByStore: Map<string, string>;
  /** `country:part` of the parts Apple's answers retired: no sweep asks them. */
  retired: ReadonlySet<string>;
};

/**
 * Syncs poll targets with the saved searches and plans the requests of a cycle starting now.
 * The request budget is the sum of the live egress addresses' rates; a sweep of every target
 * is sized in requests (seeds x part packs), and the schedule that budget gives decides how
 * often alerting and page-only targets are due. Whatever budget the due targets leave goes to
 * the stalest of the others.
 */
export async function planWatchCycle(
  deps: Pick<PollerDeps, 'db' | 'now' | 'intervalMs' | 'partsPerRequest'> & {
    controlParts?: ReadonlyMap<string, string>;
    /** Full sweeps aim to ask every target within this (an hour unless set). */
    fullSweepMs?: number;
  },
): Promise<PlannedCycle> {
  const cycleStartedAt = deps.now();
  const targetCount = await syncPollTargets(deps.db, new Date(cycleStartedAt));
  const since = new Date(cycleStartedAt - WORKER_LIVENESS_MS);
  const [rows, demandRows, addresses, live] = await Promise.all([
    listPollTargets(deps.db),
    listGroupDemand(deps.db),
    listLiveEgressAddresses(deps.db, since),
    summariseLiveWorkers(deps.db, since),
  ]);
  const alertPartsByTarget = new Map<string, string[]>();
  for (const row of await listAlertParts(deps.db)) {
    const key = formatTargetKey({
      countryCode: row.country_code,
      productId: row.product_id,
      storeId: row.store_id,
    });
    alertPartsByTarget.set(key, [...(alertPartsByTarget.get(key) ?? []), row.part_number]);
  }
  const alertingKeys = new Set(
    demandRows
      .filter((row) => row.alerting_searches > 0)
      .map((row) =>
        formatTargetKey({
          countryCode: row.country_code,
          productId: row.product_id,
          storeId: row.store_id,
        }),
      ),
  );
  const launchRank = new Map(
    demandRows.map((row) => [`${row.country_code}:${row.product_id}`, row.launch_rank]),
  );
  const targets = rows.map((row) => {
    const key = formatTargetKey({
      countryCode: row.country_code,
      productId: row.product_id,
      storeId: row.store_id,
    });
    const lastCoveredAt = row.last_covered_at?.getTime() ?? null;
    const lastAlertCoveredAt = row.last_alert_covered_at?.getTime() ?? null;
    return {
      countryCode: row.country_code,
      productId: row.product_id,
      storeId: row.store_id,
      isAlerting: alertingKeys.has(key),
      alertParts: alertPartsByTarget.get(key) ?? [],
      lastCoveredAt,
      // A full answer covers the preferred parts too.
      lastAlertCoveredAt:
        lastAlertCoveredAt === null
          ? lastCoveredAt
          : Math.max(lastAlertCoveredAt, lastCoveredAt ?? 0),
    };
  });
  // Alerting first, then the stalest, then the newest launches.
  targets.sort(
    (a, b) =>
      Number(b.isAlerting) - Number(a.isAlerting) ||
      (a.lastCoveredAt ?? -Infinity) - (b.lastCoveredAt ?? -Infinity) ||
      (launchRank.get(`${a.countryCode}:${a.productId}`) ?? 0) -
        (launchRank.get(`${b.countryCode}:${b.productId}`) ?? 0),
  );
  const inputs = await readPlanningInputs(deps, targets, cycleStartedAt);
  for (const target of targets) {
    target.alertParts = target.alertParts.filter(
      (part) => !inputs.retired.has(`${target.countryCode}:${part}`),
    );
  }
  // Sweep sizes in requests: every part of every type, and the alerting searches' preferred parts.
  const sweepRequests = countHttpRequests(planRequests(targets, inputs.context));
  const alertingSweepRequests = countHttpRequests(planAlertRequests(targets, inputs.context));
  const budgetPerMinute = addresses.reduce((sum, address) => sum + address.rate_per_minute, 0);
  const schedule =
    addresses.length === 0
      ? undefined
      : computeSweepSchedule({
          budgetPerMinute,
          intervalMs: deps.intervalMs,
          alertingSweepRequests,
          fullSweepRequests: sweepRequests,
          allWithinMs: deps.fullSweepMs,
        });
  const isWithin = (coveredAt: number | null, period: number): boolean =>
    coveredAt !== null &&
    Number.isFinite(period) &&
    period > 1 &&
    coveredAt >= cycleStartedAt - (period - 1) * deps.intervalMs;
  const isFullResting = (target: (typeof targets)[number]): boolean =>
    schedule !== undefined && isWithin(target.lastCoveredAt, schedule.pageOnlyEveryIntervals);
  const isAlertResting = (target: (typeof targets)[number]): boolean =>
    schedule !== undefined && isWithin(target.lastAlertCoveredAt, schedule.alertingEveryIntervals);
  const fullDue = targets.filter((target) => !isFullResting(target));
  const fullDueKeys = new Set(fullDue.map(formatTargetKey));
  // Alerting targets due for their preferred parts only (a full request due anyway covers them).
  const alertDue = targets.filter(
    (target) =>
      target.isAlerting && !fullDueKeys.has(formatTargetKey(target)) && !isAlertResting(target),
  );
  const alertDueKeys = new Set(alertDue.map(formatTargetKey));
  // Resting alerting targets ride along in free slots, stalest first.
  const alertRiders = targets
    .filter(
      (target) =>
        target.isAlerting &&
        !fullDueKeys.has(formatTargetKey(target)) &&
        !alertDueKeys.has(formatTargetKey(target)),
    )
    .sort((a, b) => (a.lastAlertCoveredAt ?? 0) - (b.lastAlertCoveredAt ?? 0));
  const planned = [
    ...topUpAlertRequests(planAlertRequests(alertDue, inputs.context), alertRiders, inputs.context),
    ...planRequests(fullDue, inputs.context),
  ];
  if (schedule !== undefined) {
    // Spend the whole budget: leftover requests go to the stalest resting targets.
    const leftover = Math.floor(schedule.requestsPerInterval) - countHttpRequests(planned);
    if (leftover > 0) {
      const resting = targets
        .filter(isFullResting)
        .sort((a, b) => (a.lastCoveredAt ?? 0) - (b.lastCoveredAt ?? 0))
        .map((target) => ({ ...target, isAlerting: false }));
      let spent = 0;
      for (const request of planRequests(resting, inputs.context)) {
        if (spent + request.httpRequests > leftover) break;
        planned.push(request);
        spent += request.httpRequests;
      }
    }
    await saveWatchFreshness(deps.db, {
      planned_at: new Date(cycleStartedAt),
      interval_ms: deps.intervalMs,
      workers: Math.max(live.workers, addresses.length),
      budget_per_minute: budgetPerMinute,
      alerting_groups: targets.filter((target) => target.isAlerting).length,
      page_only_groups: targets.filter((target) => !target.isAlerting).length,
      alerting_fresh_within_ms: schedule.alertingFreshWithinMs,
      all_fresh_within_ms: schedule.allFreshWithinMs,
    });
  }
  await pruneUpstreamRequests(deps.db, new Date(cycleStartedAt - REQUEST_LOG_RETENTION_MS));
  return {
    cycleStartedAt,
    jobs: planned.map((request) => toJob(request, inputs, cycleStartedAt)),
    sweepRequests,
    alertingSweepRequests,
    targetCount,
    schedule,
  };
}

/** The job that carries a planned request. */
export function toJob(
  request: PlannedRequest,
  inputs: PlanningInputs,
  cycleStartedAt: number,
): RequestJob {
  const seed = request.target.kind === 'location' ? request.target.seedStoreId : null;
  return {
    countryCode: request.countryCode,
    target: request.target,
    productIds: request.productIds,
    storeIds: [...new Set(request.covers.map((target) => target.storeId))],
    partNumbers: request.partNumbers ?? null,
    covers: request.covers.map((target) => [target.productId, target.storeId]),
    controlPart: inputs.controlByCountry.get(request.countryCode) ?? null,
    location: seed === null ? null : (inputs.locationByStore.get(seed) ?? seed),
    cycleStartedAt,
  };
}

async function readPlanningInputs(
  deps: Pick<PollerDeps, 'db' | 'partsPerRequest'> & { controlParts?: ReadonlyMap<string, string> },
  targets: readonly PlanTarget[],
  now: number,
): Promise<PlanningInputs> {
  const countries = [...new Set(targets.map((target) => target.countryCode))];
  const [seedRows, heldRows, retiredRows, busiest, partCounts, stores] = await Promise.all([
    listLocationSeeds(deps.db),
    listInvalidParts(deps.db, new Date(now - INVALID_PART_HOLD_MS)),
    listRetiredParts(deps.db),
    findBusiestParts(deps.db, new Date(now - CONTROL_WINDOW_MS)),
    countPartsByProduct(deps.db, countries),
    countries.length === 0
      ? Promise.resolve([])
      : deps.db
          .selectFrom('stores')
          .innerJoin('countries', 'countries.locale_code', 'stores.country_locale')
          .select([
            'stores.store_id',
            'stores.postal_code',
            'stores.city',
            'countries.country_code',
          ])
          .where('countries.country_code', 'in', countries)
          .execute(),
  ]);
  const invalid = new Set(heldRows.map((row) => `${row.country_code}:${row.part_number}`));
  const retired = new Set(retiredRows.map((row) => `${row.country_code}:${row.part_number}`));
  // Parts not asked (refused for a while, or retired): each once, though it may be both.
  const invalidPerProduct = new Map<string, number>();
  const unasked = new Map(
    [...heldRows, ...retiredRows].map((row) => [`${row.country_code}:${row.part_number}`, row]),
  );
  for (const row of unasked.values()) {
    const key = `${row.country_code}:${row.product_id}`;
    invalidPerProduct.set(key, (invalidPerProduct.get(key) ?? 0) + 1);
  }
  const controlByCountry = chooseCountryControls(countries, {
    configured: (country) => deps.controlParts?.get(country),
    busiest: (country) => busiest.get(country),
    isHeldOut: (country, part) => invalid.has(`${country}:${part}`),
    isRetired: (country, part) => retired.has(`${country}:${part}`),
  });
  const seeds = new Map(
    seedRows
      .filter((row) => row.store_ids !== null)
      .map((row) => [row.seed_store_id, { storeIds: row.store_ids! }]),
  );
  const neighbours = await listNearestNeighbourIds(
    deps.db,
    [...new Set(targets.map((target) => target.storeId))],
    EXPECTED_NEIGHBOURS_PER_ANSWER,
  );
  const locationByStore = new Map(
    stores.map((store) => [store.store_id, chooseSeedLocation(store.postal_code, store.city)]),
  );
  return {
    controlByCountry,
    locationByStore,
    retired,
    context: createPlanContext({
      seeds,
      estimateNeighbours: (storeId) => neighbours.get(storeId) ?? [],
      countParts: (countryCode, productId) =>
        Math.max(
          0,
          (partCounts.get(`${countryCode}:${productId}`) ?? 0) -
            (invalidPerProduct.get(`${countryCode}:${productId}`) ?? 0),
        ),
      partsPerRequest: deps.partsPerRequest,
      controlByCountry,
    }),
  };
}

async function countPartsByProduct(
  db: Db,
  countries: readonly string[],
): Promise<Map<string, number>> {
  if (countries.length === 0) return new Map();
  const rows = await db
    .selectFrom('product_models')
    .select(['country_code', 'product_id'])
    .select(sql<number>`count(*)`.as('parts'))
    .where('country_code', 'in', countries)
    .groupBy(['country_code', 'product_id'])
    .execute();
  return new Map(rows.map((row) => [`${row.country_code}:${row.product_id}`, Number(row.parts)]));
}

/** Totals of a cycle run in this process. */
export type CycleReport = {
  cycleStartedAt: number;
  targets: number;
  planned: number;
  requests: number;
  polled: number;
  failed: number;
  skipped: Record<string, number>;
  alertsEnqueued: number;
};

/** Folds one request's outcome into a cycle report. */
export function countOutcome(report: CycleReport, outcome: PollOutcome): void {
  if (outcome.kind === 'polled') {
    report.requests += outcome.requests;
    report.polled += 1;
    report.alertsEnqueued += outcome.report.alertsEnqueued;
  } else if (outcome.kind === 'failed') {
    report.requests += outcome.requests;
    report.failed += 1;
  } else {
    report.skipped[outcome.reason] = (report.skipped[outcome.reason] ?? 0) + 1;
  }
}

/**
 * Plans and runs a whole cycle in this process, one request after another. The pg-boss
 * poller spreads the same work over workers; this form serves tests, the benchmark and
 * one-shot checks.
 */
export async function runWatchCycle(
  deps: PollerDeps & { controlParts?: ReadonlyMap<string, string> },
): Promise<CycleReport> {
  const { cycleStartedAt, jobs, targetCount } = await planWatchCycle(deps);
  const report: CycleReport = {
    cycleStartedAt,
    targets: targetCount,
    planned: jobs.length,
    requests: 0,
    polled: 0,
    failed: 0,
    skipped: {},
    alertsEnqueued: 0,
  };
  for (const job of jobs) countOutcome(report, await pollRequest(deps, job));
  return report;
}
