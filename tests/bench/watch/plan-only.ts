// `npm run bench:watch -- --plan-only`: what the planner asks of Apple at the shipped defaults,
// without running a worker. For each crowd size it plans one sweep of every watched target
// with the product's own planner (shared/watch/request-planner.ts) over the answer lists
// Apple's pickup-message would carry (each store's postal code answers its 12 nearest stores
// of the country, as the simulator answers), and compares it with the one-request-per-(country,
// type, store) plan the engine used before. The freshness each number of egress addresses buys
// comes from the same schedule the planner saves for /v2/status.
import { buildSimCatalog, type SimCatalog } from '#server/simulator/sim-catalog.ts';
import { NEARBY_STORE_LIMIT } from '#server/simulator/index.ts';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS } from '#shared/catalog/index.ts';
import { isWatchKitType } from '#shared/catalog/watch-kits.ts';
import {
  computeSweepSchedule,
  countHttpRequests,
  formatTargetKey,
  planAlertRequests,
  planRequests,
  type PlanTarget,
  type RequestPlanContext,
} from '#shared/watch/index.ts';
import type { BenchCatalog } from './catalog.ts';
import { computePlanBounds } from './plan-bounds.ts';
import { DEFAULTS } from './compression.ts';
import { createSeededRandom, planCrowd } from './skew.ts';

/** Sizes and address counts the issue asks about. */
export const PLAN_ONLY_SIZES = [100, 1_000, 10_000, 100_000];
export const PLAN_ONLY_ADDRESSES = [1, 10, 50];

/** One printed line's figures. */
export type PlanLine = {
  searches: number;
  addresses: number;
  requestsPerSweep: number;
  alertingRequestsPerSweep: number;
  perTypePlan: number;
  alertingFreshWithinMin: number;
  allFreshWithinMin: number;
  /** Fewest requests any plan over the same answer lists could take (plan-bounds.ts). */
  fullSweepBound: number;
  alertingSweepBound: number;
  /** The freshness those fewest requests would buy with the same schedule. */
  boundAlertingFreshWithinMin: number;
  boundAllFreshWithinMin: number;
};

/** The answer lists a sweep learns: every store's own location seed lists its nearest stores. */
export function learnSeedLists(
  simCatalog: SimCatalog,
  storeIds: readonly { storeId: string; countryCode: string }[],
): RequestPlanContext['seeds'] {
  const seeds = new Map<string, { storeIds: string[] }>();
  for (const { storeId, countryCode } of storeIds) {
    const origin = simCatalog.findStore(countryCode, storeId);
    if (origin === undefined) continue;
    seeds.set(storeId, {
      storeIds: simCatalog
        .listNearestStores(origin, NEARBY_STORE_LIMIT)
        .map((listed) => listed.store.store_id),
    });
  }
  return seeds;
}

/** Plans a sweep per crowd size and prints one line per size and address count. */
export function runPlanOnly(
  catalog: BenchCatalog,
  say: (line: string) => void,
  sizes: readonly number[] = PLAN_ONLY_SIZES,
  addressCounts: readonly number[] = PLAN_ONLY_ADDRESSES,
): PlanLine[] {
  const started = performance.now();
  const simCatalog = buildSimCatalog(catalog.simulatorStores, PRODUCT_MODEL_SEEDS, COUNTRY_SEEDS);
  const seeds = learnSeedLists(simCatalog, [
    ...new Map(catalog.combos.map((combo) => [combo.storeId, combo])).values(),
  ]);
  const partCounts = new Map(
    catalog.combos.map((combo) => [`${combo.countryCode}:${combo.productId}`, combo.parts.length]),
  );
  const context: RequestPlanContext = {
    seeds,
    countParts: (countryCode, productId) => partCounts.get(`${countryCode}:${productId}`) ?? 1,
    partsPerRequest: DEFAULTS.partsPerRequest,
    // Every request carries the country's control part.
    reservedParts: () => 1,
  };
  say(
    `Plan only, at the shipped defaults: ${DEFAULTS.partsPerRequest} parts a request (one of them the control part), ` +
      `${DEFAULTS.upstreamRatePerMinute} request a minute per egress address (burst ${DEFAULTS.upstreamBurst}), a ${DEFAULTS.pollIntervalSeconds} s interval; ` +
      `${catalog.simulatorStores.length} stores, each location answering its ${NEARBY_STORE_LIMIT} nearest of the country.`,
  );
  const lines: PlanLine[] = [];
  for (const size of sizes) {
    const users = planCrowd(catalog.combos, catalog.productOrder, size, createSeededRandom(size));
    const byKey = new Map<string, PlanTarget>();
    for (const search of users.flatMap((user) => user.searches)) {
      // Apple Watch searches are not asked (shared/catalog/watch-kits.ts): no target.
      if (isWatchKitType(search.combo.productId)) continue;
      const alertParts = search.isAlerting ? search.preferredParts : [];
      const target = {
        countryCode: search.combo.countryCode,
        productId: search.combo.productId,
        storeId: search.combo.storeId,
        isAlerting: search.isAlerting,
        alertParts,
      };
      const key = formatTargetKey(target);
      const known = byKey.get(key);
      if (known === undefined) byKey.set(key, target);
      else {
        known.isAlerting ||= target.isAlerting;
        known.alertParts = [...new Set([...(known.alertParts ?? []), ...alertParts])];
      }
    }
    const targets: PlanTarget[] = [...byKey.values()].sort(
      (a, b) => Number(b.isAlerting) - Number(a.isAlerting),
    );
    // A full sweep asks every part of every watched type; an alerting sweep only the preferred
    // parts of the searches that alert. The schedule runs the small one more often.
    const requestsPerSweep = countHttpRequests(planRequests(targets, context));
    const alertingRequestsPerSweep = countHttpRequests(planAlertRequests(targets, context));
    const bounds = computePlanBounds(targets, context);
    const scheduleFor = (addresses: number, alerting: number, full: number) =>
      computeSweepSchedule({
        budgetPerMinute: addresses * DEFAULTS.upstreamRatePerMinute,
        intervalMs: DEFAULTS.pollIntervalSeconds * 1000,
        alertingSweepRequests: alerting,
        fullSweepRequests: full,
      });
    const toMinutes = (ms: number): number => Math.ceil(ms / 60_000);
    for (const addresses of addressCounts) {
      const schedule = scheduleFor(addresses, alertingRequestsPerSweep, requestsPerSweep);
      const best = scheduleFor(addresses, bounds.alertingSweep, bounds.fullSweep);
      const line: PlanLine = {
        searches: size,
        addresses,
        requestsPerSweep,
        alertingRequestsPerSweep,
        perTypePlan: targets.length,
        alertingFreshWithinMin: toMinutes(schedule.alertingFreshWithinMs),
        allFreshWithinMin: toMinutes(schedule.allFreshWithinMs),
        fullSweepBound: bounds.fullSweep,
        alertingSweepBound: bounds.alertingSweep,
        boundAlertingFreshWithinMin: toMinutes(best.alertingFreshWithinMs),
        boundAllFreshWithinMin: toMinutes(best.allFreshWithinMs),
      };
      lines.push(line);
      say(
        `plan: searches ${size} addresses ${addresses}: requests per sweep ${requestsPerSweep} (per-type plan ${targets.length}; alerting sweep ${alertingRequestsPerSweep}), ` +
          `alerting fresh within ${line.alertingFreshWithinMin} min, all fresh within ${line.allFreshWithinMin} min`,
      );
    }
    say(
      `bound: searches ${size}: no plan over these answer lists takes fewer than ${bounds.fullSweep} requests per sweep ` +
        `(${(targets.length / bounds.fullSweep).toFixed(1)}x fewer than the per-type plan) or ${bounds.alertingSweep} per alerting sweep; ` +
        `at those sizes ${addressCounts
          .map((addresses) => {
            const line = lines.find(
              (entry) => entry.searches === size && entry.addresses === addresses,
            )!;
            return `${addresses} ${addresses === 1 ? 'address' : 'addresses'}: alerting within ${line.boundAlertingFreshWithinMin} min, all within ${line.boundAllFreshWithinMin} min`;
          })
          .join('; ')}`,
    );
  }
  say(`Planned in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  say(
    'Left out: the first sweep that learns the answer lists (each watched store asked once, one request a minute per ' +
      'address), failures, blocks and their cool-downs, invalid parts found by bisection, and the spread of requests ' +
      'within a sweep. "Fresh within" counts a period plus the cycle it waits in, as /v2/status promises. ' +
      'The bounds count part places only (stores no learned answer lists together each need an answer per part), ' +
      'not how places round into whole requests, so real plans stay above them; they assume locations are stores, as the planner asks.',
  );
  for (const check of checkPlanTargets(lines)) say(check);
  return lines;
}

/** The issue's targets, as lines saying whether each holds. */
export function checkPlanTargets(lines: readonly PlanLine[]): string[] {
  const find = (searches: number, addresses: number): PlanLine | undefined =>
    lines.find((line) => line.searches === searches && line.addresses === addresses);
  const checks: string[] = [];
  const tenThousand = find(10_000, 10);
  if (tenThousand !== undefined) {
    const ratio = tenThousand.perTypePlan / tenThousand.requestsPerSweep;
    const bestRatio = tenThousand.perTypePlan / tenThousand.fullSweepBound;
    checks.push(
      `check: 10,000 searches need ${tenThousand.requestsPerSweep} requests per sweep, ${ratio.toFixed(1)}x fewer than the per-type plan (target >= 20x): ${ratio >= 20 ? 'met' : 'MISSED'}` +
        ` (no plan can do better than ${tenThousand.fullSweepBound}, ${bestRatio.toFixed(1)}x)`,
      `check: 10,000 searches, 10 addresses: alerting within ${tenThousand.alertingFreshWithinMin} min (target <= 15), all within ${tenThousand.allFreshWithinMin} min (target <= 60): ` +
        `${tenThousand.alertingFreshWithinMin <= 15 && tenThousand.allFreshWithinMin <= 60 ? 'met' : 'MISSED'}` +
        ` (the fewest possible requests would give ${tenThousand.boundAlertingFreshWithinMin} and ${tenThousand.boundAllFreshWithinMin} min)`,
    );
  }
  const hundredThousand = find(100_000, 50);
  if (hundredThousand !== undefined) {
    checks.push(
      `check: 100,000 searches, 50 addresses: alerting within ${hundredThousand.alertingFreshWithinMin} min (target <= 10): ${hundredThousand.alertingFreshWithinMin <= 10 ? 'met' : 'MISSED'}` +
        ` (the fewest possible requests would give ${hundredThousand.boundAlertingFreshWithinMin} min)`,
    );
  }
  return checks;
}
