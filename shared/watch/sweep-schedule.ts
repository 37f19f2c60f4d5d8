// Freshness within the upstream request budget. Apple blocks an address after about 30 quick
// requests, so the request budget of all egress addresses together is the limit of the
// product; this module decides how to spend it between full sweeps (every watched part) and
// alerting sweeps (the preferred parts of searches that alert), so that nothing starves.
// Periods are whole intervals because cycles start once per interval.

/** How often each class of group is asked, and the staleness that gives. */
export type FreshnessSchedule = {
  /** Requests the budget allows per interval. */
  requestsPerInterval: number;
  /** An alerting group is asked every this many intervals. */
  alertingEveryIntervals: number;
  /** A page-only group is asked every this many intervals. */
  pageOnlyEveryIntervals: number;
  /**
   * Upper bounds of staleness, counting one request per group (answers that cover
   * neighbours only make things fresher): a period plus the cycle it waits in.
   */
  alertingFreshWithinMs: number;
  allFreshWithinMs: number;
};

/** "every group fresh within 4 min (alerting groups within 2 min)", for logs and the status page. */
export function describeFreshness(
  schedule: Pick<FreshnessSchedule, 'alertingFreshWithinMs' | 'allFreshWithinMs'>,
): string {
  if (!Number.isFinite(schedule.allFreshWithinMs)) return 'no request budget: nothing is asked';
  const minutes = (ms: number): string => `${Math.ceil(ms / 60_000)} min`;
  const all = `every group fresh within ${minutes(schedule.allFreshWithinMs)}`;
  return schedule.alertingFreshWithinMs < schedule.allFreshWithinMs
    ? `${all} (alerting groups within ${minutes(schedule.alertingFreshWithinMs)})`
    : all;
}

/** What a sweep schedule is computed from: sweep sizes in requests, not targets. */
export type SweepInputs = {
  budgetPerMinute: number;
  intervalMs: number;
  /** Requests of a sweep of the alerting targets' preferred parts. */
  alertingSweepRequests: number;
  /** Requests of a sweep of every part of every watched type (it refreshes alerting targets too). */
  fullSweepRequests: number;
  /** Full sweeps are given what keeps every target within this, inside the shares below. */
  allWithinMs?: number;
};

/** Full sweeps get at least this share of the budget, so nothing starves... */
export const FULL_SWEEP_MIN_SHARE = 0.2;
/** ...and at most this, so alerting targets keep at least half. */
export const FULL_SWEEP_MAX_SHARE = 0.5;
const DEFAULT_ALL_WITHIN_MS = 60 * 60_000;

/**
 * Splits the request budget between alerting sweeps (preferred parts only) and full sweeps
 * (every part, which also refresh alerting targets). Full sweeps get what keeps every target
 * within `allWithinMs` (an hour), bounded to 20-50 % of the budget; alerting sweeps the rest.
 * Alerting freshness counts both kinds of sweep.
 */
export function computeSweepSchedule(inputs: SweepInputs): FreshnessSchedule {
  const { intervalMs, alertingSweepRequests: alerting, fullSweepRequests: full } = inputs;
  const perInterval = Math.max(0, (inputs.budgetPerMinute * intervalMs) / 60_000);
  if (alerting + full <= perInterval) {
    return {
      requestsPerInterval: perInterval,
      alertingEveryIntervals: 1,
      pageOnlyEveryIntervals: 1,
      alertingFreshWithinMs: 2 * intervalMs,
      allFreshWithinMs: 2 * intervalMs,
    };
  }
  if (perInterval <= 0) {
    return {
      requestsPerInterval: 0,
      alertingEveryIntervals: Number.POSITIVE_INFINITY,
      pageOnlyEveryIntervals: Number.POSITIVE_INFINITY,
      alertingFreshWithinMs: Number.POSITIVE_INFINITY,
      allFreshWithinMs: Number.POSITIVE_INFINITY,
    };
  }
  const targetIntervals = Math.max(
    1,
    (inputs.allWithinMs ?? DEFAULT_ALL_WITHIN_MS) / intervalMs - 1,
  );
  // A full sweep refreshes alerting targets too, so alerting sweeps only make up the rest of
  // the rate their period asks for: alerting x (1/period - 1/fullEvery) = what is left.
  const periodsFor = (share: number): { fullEvery: number; alertingEvery: number } => {
    const fullEvery = Math.max(1, Math.ceil(full / share));
    const alertingEvery =
      alerting === 0
        ? fullEvery
        : Math.max(1, Math.ceil(1 / ((perInterval - share) / alerting + 1 / fullEvery)));
    return { fullEvery, alertingEvery };
  };
  const wanted = alerting === 0 ? perInterval : full / targetIntervals;
  let fullShare = Math.min(
    perInterval * (alerting === 0 ? 1 : FULL_SWEEP_MAX_SHARE),
    Math.max(perInterval * FULL_SWEEP_MIN_SHARE, wanted),
  );
  // Budget alerting sweeps cannot turn into fresher alerts goes to full sweeps.
  const base = periodsFor(fullShare).alertingEvery;
  for (let share = fullShare; share <= perInterval + 1e-9; share += perInterval / 20) {
    if (periodsFor(share).alertingEvery <= base) fullShare = share;
  }
  const periods = periodsFor(Math.min(fullShare, perInterval));
  const fullEvery = periods.fullEvery;
  // Never beyond fullEvery, which refreshes alerting targets anyway: with no share left for
  // alerting sweeps, 1 / (1 / fullEvery) can round up past it (253 gave 253.00000000000003).
  const alertingEvery = Math.min(periods.alertingEvery, fullEvery);
  return {
    requestsPerInterval: perInterval,
    alertingEveryIntervals: alertingEvery,
    pageOnlyEveryIntervals: fullEvery,
    alertingFreshWithinMs: (alertingEvery + 1) * intervalMs,
    allFreshWithinMs: (fullEvery + 1) * intervalMs,
  };
}
