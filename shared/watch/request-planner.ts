// Turns the watched (store, product type) targets that are due into as few upstream requests
// as the stores' answer lists allow. Apple's pickup-message answers `location=` (a postal code
// or city) with the ~12 nearest stores of that country and `store=` with that one store, for
// every part in the query. So a request is (country, location seed, parts): the seeds are
// chosen by greedy set cover over the store lists that answers actually carried, and the
// parts of every product type due at the stores a seed covers are packed into it, up to the
// per-request limit. A target stands for all (store, part) pairs of one product type at one
// store: in a full sweep a type's parts travel together, so one answer covers the whole
// target. Alerting sweeps ask only the preferred parts of the searches that alert (the pairs a
// stale answer would delay an alert for), so they are far smaller and run more often.

/** One watched (country, product type, store) and how urgent it is. */
export type PlanTarget = {
  countryCode: string;
  productId: string;
  storeId: string;
  /** A search of the target alerts (a preferred model and a channel on). */
  isAlerting: boolean;
  /** Preferred parts of the target's alerting searches: what an alerting sweep asks. */
  alertParts?: readonly string[];
};

/** What answers taught about one store's location seed. */
export type SeedKnowledge = {
  /** Stores the last answer for this seed listed (in the seed's country). */
  storeIds: readonly string[];
};

/** Everything planning reads besides the targets. */
export type RequestPlanContext = {
  /** Learned answer lists per seed store (the store whose postal code or city is asked). */
  seeds: ReadonlyMap<string, SeedKnowledge>;
  /**
   * Stores an answer for a seed not yet asked is expected to list besides the seed's own
   * store (its known nearest neighbours); without it only the store itself is counted.
   */
  estimateNeighbours?: (storeId: string) => readonly string[];
  /** Parts one product type has in the country (after invalid parts are left out). */
  countParts: (countryCode: string, productId: string) => number;
  /** Most parts in one request, the control part included. */
  partsPerRequest: number;
  /** Slots kept free for the country's control part (0 or 1). */
  reservedParts: (countryCode: string) => number;
};

/** Where a request asks: a seed's location, or one store alone. */
export type RequestTarget =
  { kind: 'location'; seedStoreId: string } | { kind: 'store'; storeId: string };

/** One planned upstream question (more than one HTTP request only when a type alone exceeds the limit). */
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
  /** HTTP requests it takes: 1, or more when one product type has more parts than fit. */
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
 * Plans requests for the given targets, which arrive in priority order (the caller puts
 * alerting and stale targets first). Alerting targets are planned first; page-only targets
 * then fill the free part slots of those requests before seeds are chosen for the rest.
 */
export function planRequests(
  targets: readonly PlanTarget[],
  context: RequestPlanContext,
): PlannedRequest[] {
  const byCountry = new Map<string, PlanTarget[]>();
  for (const target of targets) {
    const list = byCountry.get(target.countryCode) ?? [];
    list.push(target);
    byCountry.set(target.countryCode, list);
  }
  const alerting: PlannedRequest[] = [];
  const pageOnly: PlannedRequest[] = [];
  for (const [countryCode, list] of byCountry) {
    const everyStore = new Set(list.map((target) => target.storeId));
    const packFull =
      (isAlerting: boolean): Packer =>
      (target, expected, assigned) =>
        packRequests(countryCode, target, expected, assigned, context, isAlerting);
    const firstPass = planCountry(
      list.filter((target) => target.isAlerting),
      context,
      everyStore,
      packFull(true),
    );
    const remaining = fillFreeSlots(
      firstPass,
      list.filter((target) => !target.isAlerting),
      context,
    );
    alerting.push(...firstPass);
    pageOnly.push(...planCountry(remaining, context, everyStore, packFull(false)));
  }
  return [...alerting, ...pageOnly];
}

/**
 * Plans an alerting sweep: only alerting targets, each asking only its preferred parts, packed
 * target by target (a target's parts stay in one request) up to the per-request limit.
 */
export function planAlertRequests(
  targets: readonly PlanTarget[],
  context: RequestPlanContext,
): PlannedRequest[] {
  const byCountry = new Map<string, PlanTarget[]>();
  for (const target of targets) {
    if (!target.isAlerting || (target.alertParts?.length ?? 0) === 0) continue;
    const list = byCountry.get(target.countryCode) ?? [];
    list.push(target);
    byCountry.set(target.countryCode, list);
  }
  const requests: PlannedRequest[] = [];
  for (const [countryCode, list] of byCountry) {
    const everyStore = new Set(list.map((target) => target.storeId));
    const capacity = Math.max(1, context.partsPerRequest - context.reservedParts(countryCode));
    requests.push(
      ...planCountry(list, context, everyStore, (target, expected, assigned) =>
        packAlertParts(countryCode, target, expected, assigned, capacity),
      ),
    );
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
    const capacity = Math.max(
      1,
      context.partsPerRequest - context.reservedParts(request.countryCode),
    );
    const listed = new Set(request.expectedStoreIds);
    const parts = new Set(request.partNumbers);
    const productIds = new Set(request.productIds);
    const covers = [...request.covers];
    for (const candidate of candidates) {
      const key = formatTargetKey(candidate);
      if (
        taken.has(key) ||
        !candidate.isAlerting ||
        candidate.countryCode !== request.countryCode ||
        !listed.has(candidate.storeId)
      )
        continue;
      const added = (candidate.alertParts ?? []).filter((part) => !parts.has(part));
      if (parts.size + added.length > request.httpRequests * capacity) continue;
      for (const part of added) parts.add(part);
      productIds.add(candidate.productId);
      covers.push(candidate);
      taken.add(key);
    }
    return { ...request, partNumbers: [...parts], productIds: [...productIds], covers };
  });
}

type Packer = (
  target: RequestTarget,
  expectedStoreIds: string[],
  assigned: readonly PlanTarget[],
) => PlannedRequest[];

/**
 * One request for the preferred parts of every target a seed covers, each part once, grouped
 * by type; it takes as many HTTP requests as the per-request limit makes of them.
 */
function packAlertParts(
  countryCode: string,
  target: RequestTarget,
  expectedStoreIds: string[],
  assigned: readonly PlanTarget[],
  capacity: number,
): PlannedRequest[] {
  const byProduct = new Map<string, Set<string>>();
  for (const planTarget of assigned) {
    const parts = byProduct.get(planTarget.productId) ?? new Set<string>();
    for (const part of planTarget.alertParts ?? []) parts.add(part);
    byProduct.set(planTarget.productId, parts);
  }
  const partNumbers = [...byProduct.values()].flatMap((parts) => [...parts]);
  if (partNumbers.length === 0) return [];
  return [
    {
      countryCode,
      target,
      productIds: [...byProduct.keys()],
      expectedStoreIds,
      covers: [...assigned],
      isAlerting: true,
      partNumbers,
      httpRequests: Math.ceil(partNumbers.length / capacity),
    },
  ];
}

/** The stores an answer for this seed is expected to list. */
export function expectSeedStores(
  seedStoreId: string,
  context: RequestPlanContext,
): readonly string[] {
  const known = context.seeds.get(seedStoreId);
  if (known !== undefined) return known.storeIds;
  return [seedStoreId, ...(context.estimateNeighbours?.(seedStoreId) ?? [])];
}

/**
 * Greedy set cover can leave a seed whose stores later seeds also list: its stores move to
 * those seeds and it is dropped (latest picks first, they tend to carry the least).
 */
function dropRedundantSeeds(
  chosen: { seed: string; stores: string[] }[],
  context: RequestPlanContext,
): void {
  for (let index = chosen.length - 1; index >= 0; index -= 1) {
    const candidate = chosen[index];
    const homes = candidate.stores.map((storeId) =>
      chosen.find(
        (other) => other !== candidate && expectSeedStores(other.seed, context).includes(storeId),
      ),
    );
    if (homes.some((home) => home === undefined)) continue;
    candidate.stores.forEach((storeId, at) => homes[at]!.stores.push(storeId));
    chosen.splice(index, 1);
  }
}

/** HTTP requests a plan takes in all. */
export function countHttpRequests(plan: readonly PlannedRequest[]): number {
  return plan.reduce((sum, request) => sum + request.httpRequests, 0);
}

function planCountry(
  targets: readonly PlanTarget[],
  context: RequestPlanContext,
  /** Stores with any target: among seeds of equal gain, the one listing more of them wins. */
  everyStore: ReadonlySet<string>,
  pack: Packer,
): PlannedRequest[] {
  if (targets.length === 0) return [];
  const byStore = new Map<string, PlanTarget[]>();
  for (const target of targets) {
    const list = byStore.get(target.storeId) ?? [];
    list.push(target);
    byStore.set(target.storeId, list);
  }
  // Candidates: every seed an answer taught us about, and every store still to cover.
  const candidates = new Map<string, readonly string[]>();
  for (const seedStoreId of context.seeds.keys()) {
    candidates.set(seedStoreId, expectSeedStores(seedStoreId, context));
  }
  for (const storeId of byStore.keys()) {
    if (!candidates.has(storeId)) candidates.set(storeId, expectSeedStores(storeId, context));
  }
  const chosen: { seed: string; stores: string[] }[] = [];
  // Lazy greedy: a candidate's gain only shrinks as stores get covered.
  // Gain counts stores, not targets: every request of a seed asks the parts of every type due
  // at its stores, so what costs requests is the number of seeds.
  const gainOf = (stores: readonly string[]): number =>
    stores.reduce((sum, storeId) => sum + (byStore.has(storeId) ? 1 : 0), 0);
  const reachOf = (stores: readonly string[]): number =>
    stores.filter((storeId) => everyStore.has(storeId)).length;
  const queue = [...candidates]
    .map(([seed, stores]) => ({ seed, stores, gain: gainOf(stores), reach: reachOf(stores) }))
    .filter((entry) => entry.gain > 0)
    .sort((a, b) => b.gain - a.gain || b.reach - a.reach || a.seed.localeCompare(b.seed));
  while (queue.length > 0 && byStore.size > 0) {
    const head = queue.shift()!;
    const fresh = gainOf(head.stores);
    if (fresh === 0) continue;
    const next = queue[0];
    if (
      next !== undefined &&
      (fresh < next.gain || (fresh === next.gain && head.reach < next.reach))
    ) {
      head.gain = fresh;
      const at = queue.findIndex(
        (entry) => entry.gain < fresh || (entry.gain === fresh && entry.reach < head.reach),
      );
      queue.splice(at === -1 ? queue.length : at, 0, head);
      continue;
    }
    const covered = head.stores.filter((storeId) => byStore.has(storeId));
    chosen.push({ seed: head.seed, stores: covered });
    for (const storeId of covered) byStore.delete(storeId);
  }
  dropRedundantSeeds(chosen, context);
  const targetsByStore = new Map<string, PlanTarget[]>();
  for (const target of targets) {
    const list = targetsByStore.get(target.storeId) ?? [];
    list.push(target);
    targetsByStore.set(target.storeId, list);
  }
  const requests: PlannedRequest[] = [];
  for (const { seed, stores } of chosen) {
    const assigned = stores.flatMap((storeId) => targetsByStore.get(storeId) ?? []);
    requests.push(
      ...pack(
        { kind: 'location', seedStoreId: seed },
        [...expectSeedStores(seed, context)],
        assigned,
      ),
    );
  }
  // A store no seed's answer lists (its own seed was asked and left it out) is asked alone.
  for (const [storeId, left] of byStore) {
    requests.push(...pack({ kind: 'store', storeId }, [storeId], left));
  }
  return requests;
}

/** Packs the targets' product types into requests of at most the per-request part limit. */
function packRequests(
  countryCode: string,
  target: RequestTarget,
  expectedStoreIds: string[],
  targets: readonly PlanTarget[],
  context: RequestPlanContext,
  isAlerting: boolean,
): PlannedRequest[] {
  const capacity = Math.max(1, context.partsPerRequest - context.reservedParts(countryCode));
  // First fit, largest types first: fewer requests than packing in arrival order.
  const productIds = [...new Set(targets.map((t) => t.productId))].sort(
    (a, b) => context.countParts(countryCode, b) - context.countParts(countryCode, a),
  );
  const bins: { productIds: string[]; parts: number }[] = [];
  for (const productId of productIds) {
    const parts = Math.max(1, context.countParts(countryCode, productId));
    const bin = parts > capacity ? undefined : bins.find((b) => b.parts + parts <= capacity);
    if (bin === undefined) bins.push({ productIds: [productId], parts });
    else {
      bin.productIds.push(productId);
      bin.parts += parts;
    }
  }
  return bins.map((bin) => ({
    countryCode,
    target,
    productIds: bin.productIds,
    expectedStoreIds,
    covers: targets.filter((t) => bin.productIds.includes(t.productId)),
    isAlerting,
    httpRequests: Math.max(1, Math.ceil(bin.parts / capacity)),
  }));
}

/**
 * Adds page-only targets to the alerting requests whose answers will list their stores, as
 * far as free part slots allow; answers the page-only targets still to plan.
 */
function fillFreeSlots(
  requests: PlannedRequest[],
  pageOnly: readonly PlanTarget[],
  context: RequestPlanContext,
): PlanTarget[] {
  const left: PlanTarget[] = [];
  for (const target of pageOnly) {
    const isPlanned = requests.some((request) => {
      if (!request.expectedStoreIds.includes(target.storeId)) return false;
      if (request.productIds.includes(target.productId)) {
        request.covers.push(target);
        return true;
      }
      const capacity = context.partsPerRequest - context.reservedParts(request.countryCode);
      const used = request.productIds.reduce(
        (sum, productId) => sum + context.countParts(request.countryCode, productId),
        0,
      );
      if (used + context.countParts(target.countryCode, target.productId) > capacity) return false;
      request.productIds.push(target.productId);
      request.covers.push(target);
      return true;
    });
    if (!isPlanned) left.push(target);
  }
  return left;
}

/**
 * Cuts a request's parts into HTTP requests of at most `capacity`, keeping each product
 * type's parts together where they fit (the server's and the Mac's executors share it).
 */
export function sliceParts(
  models: readonly { product_id: string; part_number: string }[],
  capacity: number,
): string[][] {
  const byProduct = new Map<string, string[]>();
  for (const model of models) {
    byProduct.set(model.product_id, [
      ...(byProduct.get(model.product_id) ?? []),
      model.part_number,
    ]);
  }
  const slices: string[][] = [];
  let current: string[] = [];
  for (const parts of byProduct.values()) {
    if (current.length + parts.length > capacity && current.length > 0) {
      slices.push(current);
      current = [];
    }
    for (const part of parts) {
      if (current.length === capacity) {
        slices.push(current);
        current = [];
      }
      current.push(part);
    }
  }
  if (current.length > 0) slices.push(current);
  return slices;
}
