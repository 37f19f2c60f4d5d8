import type { LocalSearch } from '#shared/desktop/local-search.ts';
import {
  formatTargetKey,
  planRequests,
  type PlanTarget,
  type PlannedRequest,
} from '#shared/watch/request-planner.ts';
import { chooseCountryControls } from '#shared/watch/engine/index.ts';
import { isWatchKitType } from '#shared/catalog/watch-kits.ts';
import { log, type CheckDeps, type LocalCycleReport } from './check-deps.ts';
import type { LocalWatchCatalog } from './local-catalog.ts';
import {
  buildPlanContext,
  findBusiestLocalPart,
  isPartHeldOut,
  listDueTargets,
  pruneInvalidParts,
} from './local-plan.ts';
import { isPartRetired, pruneRetiredParts } from './local-retirement.ts';
import { runRequest, type CheckRun } from './run-request.ts';
import type { LocalWatchState } from './state.ts';

// One check of the local loop: every search of this Mac becomes a (country, product type,
// store) target, the request planner packs them into as few location-seed requests as the
// learned answer lists allow, and each request is asked as the server's poller asks it.

/**
 * Keeps one target per (country, product type, store) of the searches; drops the others.
 * Apple Watch types get none: they are not asked until the catalog can name their kits.
 */
export function syncTargets(
  state: LocalWatchState,
  searches: readonly LocalSearch[],
  catalog: LocalWatchCatalog,
  now: number,
): void {
  const wanted = new Map<string, PlanTarget>();
  for (const search of searches) {
    const store = catalog.findStore(search.store_id);
    if (store === undefined || isWatchKitType(search.product_type)) continue;
    const target = {
      countryCode: store.country_code,
      productId: search.product_type,
      storeId: search.store_id,
      isAlerting: false,
    };
    wanted.set(formatTargetKey(target), target);
  }
  for (const key of Object.keys(state.targets)) if (!wanted.has(key)) delete state.targets[key];
  for (const [key, target] of wanted) {
    state.targets[key] ??= {
      country_code: target.countryCode,
      product_id: target.productId,
      store_id: target.storeId,
      last_requested_at: null,
      last_covered_at: null,
      next_due_at: now,
      consecutive_failures: 0,
      last_failure_at: null,
      last_failure_message: null,
    };
  }
  const searchStores = new Set(searches.map((search) => search.store_id));
  for (const storeId of Object.keys(state.neighbours)) {
    if (!searchStores.has(storeId)) delete state.neighbours[storeId];
  }
}

/**
 * Runs one check: plans every due target into requests, asks them within this Mac's budget,
 * and asks once more, alone or by another seed, for stores an answer unexpectedly left out.
 */
export async function runCheckCycle(
  deps: CheckDeps,
  state: LocalWatchState,
  searches: readonly LocalSearch[],
): Promise<LocalCycleReport> {
  const report: LocalCycleReport = {
    requests: 0,
    alerts: [],
    answered: 0,
    failures: 0,
    skipped: 0,
  };
  const startedAt = deps.now();
  syncTargets(state, searches, deps.catalog, startedAt);
  pruneInvalidParts(state, deps.catalog, startedAt);
  pruneRetiredParts(state, deps.catalog);
  const targetCount = Object.keys(state.targets).length;
  if (targetCount === 0) return report;
  const coolDownUntil = state.address.cool_down_until ?? 0;
  if (coolDownUntil > startedAt) {
    report.skipped += targetCount;
    log(
      deps,
      startedAt,
      null,
      'skipped',
      `Apple refused requests from this machine: cooling down until ${new Date(coolDownUntil).toISOString()}`,
    );
    return report;
  }
  let due = listDueTargets(state, searches, { now: startedAt, isNotifying: deps.isNotifying });
  if (due.length < targetCount) {
    report.skipped += targetCount - due.length;
    log(deps, startedAt, null, 'skipped', `${targetCount - due.length} backing off after failures`);
  }
  const run: CheckRun = { deps, state, searches, report, covered: new Set(), failed: new Set() };
  // A second pass asks for stores a seed's answer no longer lists, with the lists just learned.
  for (let pass = 0; pass < 2 && due.length > 0; pass += 1) {
    const countries = [...new Set(due.map((target) => target.countryCode))];
    const now = deps.now();
    // This machine configures no control part: it learns one from its own answers.
    const controlByCountry = chooseCountryControls(countries, {
      configured: () => undefined,
      busiest: (country) => findBusiestLocalPart(state, deps.catalog, country, now),
      isHeldOut: (country, part) => isPartHeldOut(state, country, part, now),
      isRetired: (country, part) => isPartRetired(state, deps.catalog, country, part),
    });
    const context = buildPlanContext(state, deps.catalog, {
      now,
      partsPerRequest: deps.partsPerRequest,
      controlByCountry,
    });
    // The planner groups by seed; ask first the requests of the most urgent targets, so
    // that what the budget cannot pay for now is what waits least harm.
    const rank = new Map(due.map((target, index) => [formatTargetKey(target), index]));
    const urgency = (request: PlannedRequest) =>
      Math.min(...request.covers.map((target) => rank.get(formatTargetKey(target)) ?? Infinity));
    const plan = planRequests(due, context).sort(
      (a, b) => Number(b.isAlerting) - Number(a.isAlerting) || urgency(a) - urgency(b),
    );
    for (const [index, request] of plan.entries()) {
      const outcome = await runRequest(run, request, controlByCountry.get(request.countryCode));
      if (outcome === 'stop') {
        const left = plan.slice(index + 1).flatMap((later) => later.covers);
        report.skipped += left.length;
        return report;
      }
    }
    due = due.filter((target) => {
      const key = formatTargetKey(target);
      return !run.covered.has(key) && !run.failed.has(key);
    });
  }
  return report;
}
