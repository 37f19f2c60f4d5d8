import type { FreshnessSchedule } from './freshness.ts';

// The planner's pure core: which (country, product type, store) groups to ask upstream in a
// cycle, in what order, and which ones a neighbour's answer already covered.
//
// Decisions written down here because the spec does not show them:
// - Every saved search is active for polling, whatever the plan or notification switch:
//   tracking is a feature of every plan and the search page shows inventory either way.
//   The plan and the switches only decide who is alerted (see alert-channels.ts).
// - "Fresh" means covered since the current cycle started. Cycles start every interval,
//   so at the end of each cycle every group's coverage is younger than one interval, and
//   a group's own answer from the previous cycle never makes it skip the next one.
// - A group that has never been asked itself is asked once even if covered, so its store
//   gets its own nearest-first neighbour list (the distances nearby alerts are matched on).

/** One upstream request's worth of work. */
export type PollGroupKey = { countryCode: string; productId: string; storeId: string };

/** What the planner knows about a group; times are epoch milliseconds. */
export type PollTargetState = PollGroupKey & {
  /** Upstream host the group's request goes to (CN has its own). */
  host: string;
  lastRequestedAt: number | null;
  /** Last time any answer (its own or a neighbour's) covered this store for this product. */
  lastCoveredAt: number | null;
  /** Not before this time: pushed out by backoff after failures. */
  nextDueAt: number;
  /** Who waits on the group; without it the group counts as alerting (the desktop's searches all alert). */
  demand?: GroupDemand;
};

/** Who a stale answer would cost: the planner serves alerting groups, new launches and crowds first. */
export type GroupDemand = {
  /** Searches with a preferred model and a channel on: a stale answer delays their alert. */
  alertingSearches: number;
  searches: number;
  /** Lower is newer (the catalog's sort order within a family). */
  launchRank: number;
};

/** Why a group is not asked right now. */
export type PollSkipReason = 'covered' | 'cooling_down' | 'backing_off' | 'resting';

/** What to do with one group at one moment. */
export type PollDecision = { action: 'poll' } | { action: 'skip'; reason: PollSkipReason };

/** Inputs shared by planning and the just-in-time check before a request. */
export type PollContext = {
  now: number;
  cycleStartedAt: number;
  /** Cool-down end per host (epoch ms); absent or past means the host may be asked. */
  coolDownUntilByHost: ReadonlyMap<string, number>;
};

/** What planning may use to ask fewer times: each store's last known neighbours, nearest first. */
export type CoverageHints = {
  neighbourIdsByStore: ReadonlyMap<string, readonly string[]>;
  /** Staleness is compared in whole intervals, so the order within one interval may favour coverage. */
  intervalMs: number;
  /**
   * How many intervals apart each class is asked (computeFreshnessSchedule); without it every
   * group is due every cycle.
   */
  schedule?: Pick<FreshnessSchedule, 'alertingEveryIntervals' | 'pageOnlyEveryIntervals'>;
};

/** The groups of one cycle: due ones stalest first, and the ones left alone with why. */
export type CyclePlan = {
  due: PollTargetState[];
  skipped: { target: PollTargetState; reason: PollSkipReason }[];
};

/** Stable text key of a group, e.g. for job singleton keys and maps. */
export function formatGroupKey(group: PollGroupKey): string {
  return `${group.countryCode}:${group.productId}:${group.storeId}`;
}

/** Groups searches by (country, product type, store): one upstream request serves each group. */
export function groupSearches<T extends PollGroupKey>(
  searches: readonly T[],
): Map<string, { key: PollGroupKey; searches: T[] }> {
  const groups = new Map<string, { key: PollGroupKey; searches: T[] }>();
  for (const search of searches) {
    const id = formatGroupKey(search);
    const group = groups.get(id) ?? {
      key: {
        countryCode: search.countryCode,
        productId: search.productId,
        storeId: search.storeId,
      },
      searches: [],
    };
    group.searches.push(search);
    groups.set(id, group);
  }
  return groups;
}

/** True when an answer received since this cycle started already covered the group's store. */
export function isCoveredThisCycle(target: PollTargetState, cycleStartedAt: number): boolean {
  return target.lastCoveredAt !== null && target.lastCoveredAt >= cycleStartedAt;
}

/** Decides whether to ask upstream for a group now; checked at planning and again just before the request. */
export function decidePoll(target: PollTargetState, context: PollContext): PollDecision {
  const coolDownUntil = context.coolDownUntilByHost.get(target.host);
  if (coolDownUntil !== undefined && coolDownUntil > context.now) {
    return { action: 'skip', reason: 'cooling_down' };
  }
  if (target.nextDueAt > context.now) {
    return { action: 'skip', reason: 'backing_off' };
  }
  if (target.lastRequestedAt !== null && isCoveredThisCycle(target, context.cycleStartedAt)) {
    return { action: 'skip', reason: 'covered' };
  }
  return { action: 'poll' };
}

/** Orders groups stalest first: never covered, then oldest coverage, then oldest own request. */
export function compareStaleness(a: PollTargetState, b: PollTargetState): number {
  const coveredA = a.lastCoveredAt ?? Number.NEGATIVE_INFINITY;
  const coveredB = b.lastCoveredAt ?? Number.NEGATIVE_INFINITY;
  if (coveredA !== coveredB) return coveredA < coveredB ? -1 : 1;
  const requestedA = a.lastRequestedAt ?? Number.NEGATIVE_INFINITY;
  const requestedB = b.lastRequestedAt ?? Number.NEGATIVE_INFINITY;
  if (requestedA !== requestedB) return requestedA < requestedB ? -1 : 1;
  return formatGroupKey(a).localeCompare(formatGroupKey(b));
}

/** True when a search of the group alerts; a group without demand data counts as alerting. */
export function isAlertingGroup(target: PollTargetState): boolean {
  return target.demand === undefined || target.demand.alertingSearches > 0;
}

/**
 * Plans a cycle: the due groups (at most one request each) and the rest with reasons. With a
 * schedule, a group is due only once per its class's period (alerting groups every
 * `alertingEveryIntervals`, the rest every `pageOnlyEveryIntervals`), and due groups come in
 * tiers: alerting groups and groups past their class's staleness bound first, then the rest.
 * Within a tier they come stalest first, by whole intervals of staleness, then by demand
 * (alerting searches, newer launches, more watchers); with hints, groups of equal staleness
 * are ordered greedily so each request is expected to cover the most groups not yet
 * covered, leaving the groups a neighbour will likely cover for later in the cycle, where the
 * just-in-time check skips them. A wrong guess costs nothing but order: every due group stays
 * in the plan.
 */
export function planCycle(
  targets: readonly PollTargetState[],
  context: PollContext,
  hints?: CoverageHints,
): CyclePlan {
  const plan: CyclePlan = { due: [], skipped: [] };
  for (const target of [...targets].sort(compareStaleness)) {
    const decision = decidePoll(target, context);
    if (decision.action !== 'poll') {
      plan.skipped.push({ target, reason: decision.reason });
    } else if (hints !== undefined && isResting(target, context, hints)) {
      plan.skipped.push({ target, reason: 'resting' });
    } else {
      plan.due.push(target);
    }
  }
  if (hints === undefined) return plan;
  const tiers: PollTargetState[][] = [[], []];
  for (const target of plan.due) {
    tiers[isFirstTier(target, context, hints) ? 0 : 1].push(target);
  }
  plan.due = tiers.flatMap((tier) => orderForCoverage(tier, context.now, hints));
  return plan;
}

/** Intervals between requests of the target's class under the hints' schedule. */
function periodOf(target: PollTargetState, hints: CoverageHints): number {
  if (hints.schedule === undefined) return 1;
  return isAlertingGroup(target)
    ? hints.schedule.alertingEveryIntervals
    : hints.schedule.pageOnlyEveryIntervals;
}

/** Covered recently enough for its class: a period of k intervals leaves k - 1 cycles out. */
function isResting(target: PollTargetState, context: PollContext, hints: CoverageHints): boolean {
  const period = periodOf(target, hints);
  if (target.lastCoveredAt === null || !Number.isFinite(period) || period <= 1) return false;
  return target.lastCoveredAt >= context.cycleStartedAt - (period - 1) * hints.intervalMs;
}

/**
 * Alerting groups, and any group staler than its class's bound, go first. A page-only group
 * never covered stays in the second tier: the schedule leaves that tier a share of every
 * cycle, so it is asked soon without pushing alerting groups out of a cycle.
 */
function isFirstTier(target: PollTargetState, context: PollContext, hints: CoverageHints): boolean {
  if (isAlertingGroup(target)) return true;
  if (target.lastCoveredAt === null) return false;
  return context.now - target.lastCoveredAt > (periodOf(target, hints) + 1) * hints.intervalMs;
}

/** More alerting searches, then newer launches, then more watchers first. */
function compareDemand(a: PollTargetState, b: PollTargetState): number {
  const demandA = a.demand ?? { alertingSearches: 1, searches: 1, launchRank: 0 };
  const demandB = b.demand ?? { alertingSearches: 1, searches: 1, launchRank: 0 };
  return (
    demandB.alertingSearches - demandA.alertingSearches ||
    demandA.launchRank - demandB.launchRank ||
    demandB.searches - demandA.searches
  );
}

/** Greedy set cover within each staleness bucket; `due` arrives stalest first. */
function orderForCoverage(
  due: PollTargetState[],
  now: number,
  hints: CoverageHints,
): PollTargetState[] {
  const bucketOf = (target: PollTargetState): number =>
    target.lastCoveredAt === null
      ? Number.NEGATIVE_INFINITY
      : -Math.floor((now - target.lastCoveredAt) / Math.max(1, hints.intervalMs));
  const byKey = new Map(due.map((target) => [formatGroupKey(target), target]));
  const expectedCovered = new Set<string>();
  const coverOf = (target: PollTargetState): string[] => {
    const neighbours = hints.neighbourIdsByStore.get(target.storeId) ?? [];
    return [target.storeId, ...neighbours]
      .map((storeId) =>
        formatGroupKey({ countryCode: target.countryCode, productId: target.productId, storeId }),
      )
      .filter((key) => byKey.has(key) && !expectedCovered.has(key));
  };
  const ordered: PollTargetState[] = [];
  let start = 0;
  while (start < due.length) {
    const bucket = bucketOf(due[start]);
    let end = start;
    while (end < due.length && bucketOf(due[end]) === bucket) end += 1;
    // Lazy greedy: gains only shrink as groups get covered, so a candidate whose fresh gain
    // still equals its queue's is the best one; queues by gain keep this linear-ish.
    const queues: PollTargetState[][] = [];
    // Greedy picks the first of equal gains: demand decides among them.
    for (const candidate of due.slice(start, end).sort(compareDemand)) {
      const gain = coverOf(candidate).length;
      (queues[gain] ??= []).push(candidate);
    }
    for (let gain = queues.length - 1; gain >= 0;) {
      const candidate = queues[gain]?.shift();
      if (candidate === undefined) {
        gain -= 1;
        continue;
      }
      const fresh = coverOf(candidate).length;
      if (fresh < gain) {
        (queues[fresh] ??= []).push(candidate);
        continue;
      }
      for (const key of coverOf(candidate)) expectedCovered.add(key);
      ordered.push(candidate);
    }
    start = end;
  }
  return ordered;
}

/** Marks every group of the answer's country and product whose store the answer listed as covered at `observedAt`. */
export function applyCoverage(
  targets: Iterable<PollTargetState>,
  answer: {
    countryCode: string;
    productId: string;
    storeIds: readonly string[];
    observedAt: number;
  },
): PollTargetState[] {
  const listed = new Set(answer.storeIds);
  const covered: PollTargetState[] = [];
  for (const target of targets) {
    const isSameProduct =
      target.countryCode === answer.countryCode && target.productId === answer.productId;
    if (isSameProduct && listed.has(target.storeId)) {
      target.lastCoveredAt = Math.max(
        target.lastCoveredAt ?? Number.NEGATIVE_INFINITY,
        answer.observedAt,
      );
      covered.push(target);
    }
  }
  return covered;
}
