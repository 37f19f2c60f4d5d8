import { packFirstFit, packTypes } from './part-packing.ts';
import type { PlanTarget, RequestPlanContext, RequestTarget } from './plan-context.ts';
import { chooseSeeds, coverTypeStores, expectSeedStores, indexSeeds } from './seed-cover.ts';
import { rebalanceSeeds, type Assignment, type CountRequests } from './seed-rebalance.ts';

export { sliceParts } from './part-packing.ts';
export { expectSeedStores } from './seed-cover.ts';
export type {
  PlanTarget,
  RequestPlanContext,
  RequestTarget,
  SeedKnowledge,
} from './plan-context.ts';

// Turns the watched (store, product type) targets that are due into as few upstream requests
// as the stores' answer lists allow. Apple's pickup-message answers `location=` (a postal code
// or city) with the ~12 nearest stores of that country and `store=` with that one store, for
// every part in the query, and at most 20 parts a request (one place is the control part's).
// So a request is (country, location seed, parts), and what costs requests is seeds x parts:
// seeds are chosen by greedy set cover over the store lists answers actually carried
// (seed-cover.ts), each product type is then given to as few of those seeds as list its
// stores, a seed's types are packed first fit into requests (part-packing.ts), and targets of
// a seed's emptiest request move to other seeds that list their stores where that saves a
// request (seed-rebalance.ts). A target stands for all (store, part) pairs of one product type
// at one store: in a full sweep a type's parts travel together, so one answer covers the whole
// target. Alerting sweeps ask only the preferred parts of the searches that alert (what they
// can alert on), so they are far smaller and run more often.

/** One planned upstream question: more than one HTTP request when its parts exceed the limit. */
export type PlannedRequest = {
  countryCode: string;
  target: RequestTarget;
  productIds: string[];
  /** Stores the answer is expected to list. */
  expectedStoreIds: string[];
  /** Targets this request is expected to cover. */
  covers: PlanTarget[];
  isAlerting: boolean;
  /** An alerting sweep's request names its parts; a full one asks every part of its types. */
  partNumbers?: string[];
  /** HTTP requests it takes, counted as `sliceParts` will cut its parts (the executors use it). */
  httpRequests: number;
};

/** Stable key of a target. */
export function formatTargetKey(
  target: Pick<PlanTarget, 'countryCode' | 'productId' | 'storeId'>,
): string {
  return `${target.countryCode}:${target.productId}:${target.storeId}`;
}

/** Stable key of a planned request, for job singleton keys. */
export function formatRequestKey(
  request: Pick<PlannedRequest, 'countryCode' | 'target' | 'productIds'>,
): string {
  const where =
    request.target.kind === 'location'
      ? `location:${request.target.seedStoreId}`
      : `store:${request.target.storeId}`;
  return `${request.countryCode}:${where}:${[...request.productIds].sort().join(',')}`;
}

/**
 * Plans a full sweep of the given targets, which arrive in priority order (the caller puts
 * alerting and stale targets first): every part of every due type at its stores. Seeds are
 * chosen over all the country's due stores, each type is given to as few seeds as list its
 * stores, targets move between overlapping answers where that saves a request, and a seed's
 * types are packed first fit into requests of the part limit. Requests that cover an
 * alerting target come first.
 */
export function planRequests(
  targets: readonly PlanTarget[],
  context: RequestPlanContext,
): PlannedRequest[] {
  const requests: PlannedRequest[] = [];
  for (const [countryCode, list] of groupByCountry(targets)) {
    const capacity = countCapacity(countryCode, context);
    const sizeOf = (productId: string): number =>
      Math.max(1, context.countParts(countryCode, productId));
    const assignments = assignCheapest(list, context, (byType) =>
      packFirstFit([...byType.keys()], sizeOf, capacity).reduce(
        (sum, bin) => sum + Math.max(1, Math.ceil(bin.used / capacity)),
        0,
      ),
    );
    for (const { target, expectedStoreIds, byType } of assignments) {
      const types = [...byType].map(([productId, covers]) => ({
        productId,
        covers,
        size: sizeOf(productId),
      }));
      for (const bin of packFirstFit(types, (type) => type.size, capacity)) {
        const covers = bin.items.flatMap((type) => type.covers);
        requests.push({
          countryCode,
          target,
          productIds: bin.items.map((type) => type.productId),
          expectedStoreIds,
          covers,
          isAlerting: covers.some((cover) => cover.isAlerting),
          httpRequests: Math.max(1, Math.ceil(bin.used / capacity)),
        });
      }
    }
  }
  return sortAlertingFirst(requests);
}

/**
 * Plans an alerting sweep: only alerting targets, each asking only its preferred parts (what
 * its searches can alert on). Seeds and types are given out as in a full sweep; a seed asks
 * each type's preferred parts of the stores it answers for once, in as many HTTP requests as
 * the part limit makes of them, and a target's parts stay in one request.
 */
export function planAlertRequests(
  targets: readonly PlanTarget[],
  context: RequestPlanContext,
): PlannedRequest[] {
  const alerting = targets.filter(
    (target) => target.isAlerting && (target.alertParts?.length ?? 0) > 0,
  );
  const requests: PlannedRequest[] = [];
  for (const [countryCode, list] of groupByCountry(alerting)) {
    const capacity = countCapacity(countryCode, context);
    const toTypes = (byType: ReadonlyMap<string, readonly PlanTarget[]>) =>
      [...byType].map(([productId, covers]) => ({
        productId,
        parts: [...new Set(covers.flatMap((cover) => cover.alertParts ?? []))],
      }));
    const assignments = assignCheapest(
      list,
      context,
      (byType) => packTypes(toTypes(byType), capacity).length,
    );
    for (const { target, expectedStoreIds, byType } of assignments) {
      if (byType.size === 0) continue;
      const types = toTypes(byType);
      requests.push({
        countryCode,
        target,
        productIds: types.map((type) => type.productId),
        expectedStoreIds,
        covers: [...byType.values()].flat(),
        isAlerting: true,
        partNumbers: types.flatMap((type) => type.parts),
        httpRequests: packTypes(types, capacity).length,
      });
    }
  }
  return requests;
}

/**
 * Fills the free part slots of planned alerting requests with the preferred parts of other
 * alerting targets their answers will list anyway (`candidates`, most urgent first), without
 * adding HTTP requests. Targets refreshed together fall due together: without this, targets of
 * one seed that came due a cycle apart would each cost the seed a request of their own.
 */
export function topUpAlertRequests(
  requests: readonly PlannedRequest[],
  candidates: readonly PlanTarget[],
  context: RequestPlanContext,
): PlannedRequest[] {
  const taken = new Set<string>();
  for (const request of requests)
    for (const target of request.covers) taken.add(formatTargetKey(target));
  return requests.map((request) => {
    if (!request.isAlerting || request.partNumbers === undefined) return request;
    const capacity = countCapacity(request.countryCode, context);
    const listed = new Set(request.expectedStoreIds);
    const covers = [...request.covers];
    const partsByType = new Map<string, Set<string>>();
    const addParts = (target: PlanTarget): void => {
      const parts = partsByType.get(target.productId) ?? new Set<string>();
      for (const part of target.alertParts ?? []) parts.add(part);
      partsByType.set(target.productId, parts);
    };
    covers.forEach(addParts);
    const countSlices = (): number =>
      packTypes(
        [...partsByType].map(([productId, parts]) => ({ productId, parts: [...parts] })),
        capacity,
      ).length;
    for (const candidate of candidates) {
      const key = formatTargetKey(candidate);
      if (
        taken.has(key) ||
        !candidate.isAlerting ||
        candidate.countryCode !== request.countryCode ||
        !listed.has(candidate.storeId)
      )
        continue;
      const before = new Set(partsByType.get(candidate.productId));
      addParts(candidate);
      // Only as far as the request's HTTP requests hold it: riders add no request.
      if (countSlices() > request.httpRequests) {
        partsByType.set(candidate.productId, before);
        if (before.size === 0) partsByType.delete(candidate.productId);
        continue;
      }
      covers.push(candidate);
      taken.add(key);
    }
    const productIds = [...partsByType.keys()];
    const parts = [...new Set(productIds.flatMap((productId) => [...partsByType.get(productId)!]))];
    return { ...request, partNumbers: parts, productIds, covers };
  });
}

/** HTTP requests a plan takes in all. */
export function countHttpRequests(plan: readonly PlannedRequest[]): number {
  return plan.reduce((sum, request) => sum + request.httpRequests, 0);
}

/** Free part places of one HTTP request in a country: the limit less the control part's. */
function countCapacity(countryCode: string, context: RequestPlanContext): number {
  return Math.max(1, context.partsPerRequest - context.reservedParts(countryCode));
}

function groupByCountry(targets: readonly PlanTarget[]): Map<string, PlanTarget[]> {
  const byCountry = new Map<string, PlanTarget[]>();
  for (const target of targets) {
    const list = byCountry.get(target.countryCode) ?? [];
    list.push(target);
    byCountry.set(target.countryCode, list);
  }
  return byCountry;
}

/**
 * Gives one country's targets to seeds two ways, each rebalanced, and keeps the one taking
 * fewer requests: types among the set-cover seeds only (fewer seeds, fuller requests), or
 * among every learned seed listing the country's stores (fewer places per type). Neither wins
 * everywhere: which does depends on how the watched types spread over the stores.
 */
function assignCheapest(
  targets: readonly PlanTarget[],
  context: RequestPlanContext,
  count: CountRequests,
): Assignment[] {
  let best: { assignments: Assignment[]; requests: number } | undefined;
  for (const isAnySeed of [false, true]) {
    const assignments = assignTargets(targets, context, isAnySeed);
    rebalanceSeeds(assignments, count);
    const requests = assignments.reduce((sum, entry) => sum + count(entry.byType), 0);
    if (best === undefined || requests < best.requests) best = { assignments, requests };
  }
  return best!.assignments;
}

/**
 * Gives one country's targets to seeds: seeds by set cover over every store, then each type
 * to as few seeds as list its stores (the set-cover seeds, or with `isAnySeed` any learned
 * seed listing a watched store, set-cover seeds winning ties); a store no seed lists is asked
 * alone. Types keep the order of their first target.
 */
function assignTargets(
  targets: readonly PlanTarget[],
  context: RequestPlanContext,
  isAnySeed: boolean,
): Assignment[] {
  const stores = new Set(targets.map((target) => target.storeId));
  const { chosen, alone } = chooseSeeds(stores, stores, context);
  const isChosen = new Set(chosen.map((entry) => entry.seed));
  const candidates = isAnySeed
    ? [
        ...chosen,
        ...[...context.seeds.keys()]
          .filter(
            (seed) =>
              !isChosen.has(seed) &&
              expectSeedStores(seed, context).some((storeId) => stores.has(storeId)),
          )
          .map((seed) => ({ seed, stores: [] })),
      ]
    : chosen;
  const index = indexSeeds(candidates, context);
  const assignments = new Map<string, Assignment>();
  const assignmentOf = (target: RequestTarget): Assignment => {
    const key =
      target.kind === 'location' ? `location:${target.seedStoreId}` : `store:${target.storeId}`;
    const known = assignments.get(key);
    if (known !== undefined) return known;
    const created: Assignment = {
      target,
      expectedStoreIds:
        target.kind === 'location'
          ? [...expectSeedStores(target.seedStoreId, context)]
          : [target.storeId],
      byType: new Map(),
    };
    assignments.set(key, created);
    return created;
  };
  const isAlone = new Set(alone);
  const byType = new Map<string, PlanTarget[]>();
  for (const target of targets) {
    const list = byType.get(target.productId) ?? [];
    list.push(target);
    byType.set(target.productId, list);
  }
  const add = (where: RequestTarget, productId: string, covers: PlanTarget[]): void => {
    if (covers.length === 0) return;
    const types = assignmentOf(where).byType;
    const list = types.get(productId) ?? [];
    list.push(...covers);
    types.set(productId, list);
  };
  for (const [productId, list] of byType) {
    for (const target of list.filter((entry) => isAlone.has(entry.storeId))) {
      add({ kind: 'store', storeId: target.storeId }, productId, [target]);
    }
    const listed = list.filter((entry) => !isAlone.has(entry.storeId));
    const cover = coverTypeStores([...new Set(listed.map((entry) => entry.storeId))], index);
    for (const [seed, seedStores] of cover) {
      const served = new Set(seedStores);
      add(
        { kind: 'location', seedStoreId: seed },
        productId,
        listed.filter((entry) => served.has(entry.storeId)),
      );
    }
  }
  return [...assignments.values()];
}

function sortAlertingFirst(requests: PlannedRequest[]): PlannedRequest[] {
  return [
    ...requests.filter((request) => request.isAlerting),
    ...requests.filter((request) => !request.isAlerting),
  ];
}
