import type { LocalSearch } from '#shared/desktop/local-search.ts';
import {
  computeBackoff,
  type EndpointShape,
  type FetchLike,
  type PickupAnswer,
  type TokenBucketLimiter,
  type UpstreamFailure,
} from '#shared/upstream/index.ts';
import {
  formatTargetKey,
  planRequests,
  type PlanTarget,
  type PlannedRequest,
} from '#shared/watch/request-planner.ts';
import { askPlannedRequest, type AskTally } from './ask-upstream.ts';
import {
  buildPlanContext,
  chooseControlPart,
  chooseSeedLocation,
  listAskedModels,
  listDueTargets,
  pruneInvalidParts,
} from './local-plan.ts';
import { applyAnswer, type LocalAlert, type LocalWatchCatalog } from './observe.ts';
import type { LocalWatchState } from './state.ts';

// One check of the local loop: every search of this Mac becomes a (country, product type,
// store) target, the request planner packs them into as few location-seed requests as the
// learned answer lists allow, and each request is asked as the server's poller asks it.

/** One line per planned request (or per check that could ask nothing), for logs and the terminal. */
export type LocalCheckLog = {
  at: number;
  /** Null for a line about the whole check (a cool-down). */
  countryCode: string | null;
  productIds: string[];
  /** Where it asked: "near 10153 (R095)" or "at R095"; null for the whole check. */
  where: string | null;
  result: 'ok' | 'failed' | 'skipped';
  detail: string;
  /** HTTP requests it took. */
  requests: number;
  changes: number;
  alerts: number;
};

/** What one check did. */
export type LocalCycleReport = {
  /** HTTP requests sent. */
  requests: number;
  alerts: LocalAlert[];
  /** Planned requests that failed. */
  failures: number;
  /** Targets left for a later check (cool-down, budget, backoff). */
  skipped: number;
};

/** What a check needs from the loop and its host. */
export type CheckDeps = {
  fetch: FetchLike;
  now: () => number;
  random: () => number;
  rateLimiter: TokenBucketLimiter;
  baseUrl: string;
  shape: EndpointShape;
  partsPerRequest: number;
  catalog: LocalWatchCatalog;
  intervalMs: number;
  quietWindowMs: number;
  isNotifying: boolean;
  defaultMaxDistanceMiles: number | null;
  notify: (alert: LocalAlert) => void;
  onCheck?: (line: LocalCheckLog) => void;
  describeFailure: (failure: UpstreamFailure) => string;
};

const MAX_BACKOFF_MS = 30 * 60_000;

/** Keeps one target per (country, product type, store) of the searches; drops the others. */
export function syncTargets(
  state: LocalWatchState,
  searches: readonly LocalSearch[],
  catalog: LocalWatchCatalog,
  now: number,
): void {
  const wanted = new Map<string, PlanTarget>();
  for (const search of searches) {
    const store = catalog.findStore(search.store_id);
    if (store === undefined) continue;
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
  const report: LocalCycleReport = { requests: 0, alerts: [], failures: 0, skipped: 0 };
  const startedAt = deps.now();
  syncTargets(state, searches, deps.catalog, startedAt);
  pruneInvalidParts(state, deps.catalog, startedAt);
  const targetCount = Object.keys(state.targets).length;
  if (targetCount === 0) return report;
  let due = listDueTargets(state, searches, { now: startedAt, isNotifying: deps.isNotifying });
  if (due.length < targetCount) {
    report.skipped += targetCount - due.length;
    log(deps, startedAt, null, 'skipped', `${targetCount - due.length} backing off after failures`);
  }
  const coolDownUntil = state.address.cool_down_until ?? 0;
  if (coolDownUntil > startedAt && due.length > 0) {
    report.skipped += due.length;
    log(
      deps,
      startedAt,
      null,
      'skipped',
      `Apple refused this Mac: cooling down until ${new Date(coolDownUntil).toISOString()}`,
    );
    return report;
  }
  const run: CheckRun = { deps, state, searches, report, covered: new Set(), failed: new Set() };
  // A second pass asks for stores a seed's answer no longer lists, with the lists just learned.
  for (let pass = 0; pass < 2 && due.length > 0; pass += 1) {
    const countries = [...new Set(due.map((target) => target.countryCode))];
    const controlByCountry = new Map<string, string>();
    for (const country of countries) {
      const control = chooseControlPart(state, deps.catalog, country, deps.now());
      if (control !== null) controlByCountry.set(country, control);
    }
    const context = buildPlanContext(state, deps.catalog, {
      now: deps.now(),
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

type CheckRun = {
  deps: CheckDeps;
  state: LocalWatchState;
  searches: readonly LocalSearch[];
  report: LocalCycleReport;
  /** Targets an answer of this check covered, and targets whose request failed. */
  covered: Set<string>;
  failed: Set<string>;
};

/** Asks one planned request and files what it brought back; 'stop' ends the check. */
async function runRequest(
  run: CheckRun,
  request: PlannedRequest,
  control: string | undefined,
): Promise<'next' | 'stop'> {
  const { deps, state, report } = run;
  const pending = request.covers.filter((target) => !run.covered.has(formatTargetKey(target)));
  if (pending.length === 0) return 'next';
  const { countryCode } = request;
  const startedAt = deps.now();
  const models = request.productIds.flatMap((productId) =>
    listAskedModels(deps.catalog, state, countryCode, productId, startedAt).map((model) => ({
      ...model,
      product_id: productId,
    })),
  );
  const { where, label, originStoreId } = describeWhere(run, request);
  if (models.length === 0) {
    log(deps, startedAt, request, 'skipped', 'every model of it was refused by Apple', label);
    return 'next';
  }
  for (const target of pending) {
    const stored = state.targets[formatTargetKey(target)];
    if (stored !== undefined) stored.last_requested_at = startedAt;
  }
  let changes = 0;
  let alertCount = 0;
  const listed = new Set<string>();
  const answers: PickupAnswer[] = [];
  const answeredParts = new Set<string>();
  const onAnswer = (answer: PickupAnswer, askedParts: readonly string[]) => {
    const asked = new Set(askedParts);
    answers.push(answer);
    for (const part of askedParts) answeredParts.add(part);
    const applied = applyAnswer(
      state,
      {
        countryCode,
        parts: control === undefined ? asked : new Set([...asked, control]),
        productIds: new Set(
          models.filter((model) => asked.has(model.part_number)).map((m) => m.product_id),
        ),
        originStoreId,
      },
      answer,
      run.searches,
      deps.catalog,
      { quietWindowMs: deps.quietWindowMs, defaultMaxDistanceMiles: deps.defaultMaxDistanceMiles },
    );
    changes += applied.changes;
    alertCount += applied.alerts.length;
    for (const store of answer.stores) listed.add(store.storeNumber);
    if (request.target.kind === 'location') {
      state.seeds[request.target.seedStoreId] = {
        country_code: countryCode,
        location: 'location' in where ? where.location : request.target.seedStoreId,
        store_ids: answer.stores.map((store) => store.storeNumber),
        learned_at: answer.observedAt,
      };
    }
    for (const alert of applied.alerts) {
      report.alerts.push(alert);
      if (deps.isNotifying) deps.notify(alert);
    }
  };
  const tally = await askPlannedRequest(
    {
      fetch: deps.fetch,
      now: deps.now,
      rateLimiter: deps.rateLimiter,
      baseUrl: deps.baseUrl,
      preferredShape: deps.shape,
    },
    state,
    { countryCode, where, models, control: control ?? null, partsPerRequest: deps.partsPerRequest },
    onAnswer,
  );
  report.requests += tally.requests;
  // A product type is covered once every part of it was answered or refused, in one answer
  // or across the halves of a bisection.
  const settled = new Set([...answeredParts, ...tally.refused]);
  const coveredProducts = new Set(
    request.productIds.filter((productId) =>
      models.every((model) => model.product_id !== productId || settled.has(model.part_number)),
    ),
  );
  for (const answer of answers) coverTargets(run, countryCode, coveredProducts, answer);
  const finishedAt = deps.now();
  if (tally.skipped !== undefined) {
    report.skipped += pending.length;
    log(deps, finishedAt, request, 'skipped', describeSkip(tally, state), label);
    return 'stop';
  }
  const refused =
    tally.refused.length === 0 ? '' : `; left out ${tally.refused.join(', ')} (refused by Apple)`;
  if (tally.failure !== undefined && tally.answers === 0) {
    failTargets(run, pending, tally.failure, finishedAt);
    report.failures += 1;
    log(
      deps,
      finishedAt,
      request,
      'failed',
      `${tally.failure.message}${refused}`,
      label,
      tally.requests,
    );
    return tally.failure.kind === 'blocked' || tally.failure.kind === 'html' ? 'stop' : 'next';
  }
  if (tally.failure !== undefined) {
    const uncovered = pending.filter((target) => !run.covered.has(formatTargetKey(target)));
    failTargets(run, uncovered, tally.failure, finishedAt);
  }
  log(
    deps,
    finishedAt,
    request,
    'ok',
    `${listed.size} stores, ${models.length} parts${refused}`,
    label,
    tally.requests,
    changes,
    alertCount,
  );
  return tally.failure?.kind === 'blocked' || tally.failure?.kind === 'html' ? 'stop' : 'next';
}

/** Where a planned request asks, how a log line names it, and whose distances the answer gives. */
function describeWhere(
  run: CheckRun,
  request: PlannedRequest,
): {
  where: { location: string } | { storeNumber: string };
  label: string;
  originStoreId: string;
} {
  if (request.target.kind === 'store') {
    return {
      where: { storeNumber: request.target.storeId },
      label: `at ${request.target.storeId}`,
      originStoreId: request.target.storeId,
    };
  }
  const seed = request.target.seedStoreId;
  const store = run.deps.catalog.findStore(seed);
  const location =
    store === undefined
      ? (run.state.seeds[seed]?.location ?? seed)
      : chooseSeedLocation(store.postal_code, store.city);
  return { where: { location }, label: `near ${location} (${seed})`, originStoreId: seed };
}

/** Marks the targets of the covered product types at the listed stores as just checked. */
function coverTargets(
  run: CheckRun,
  countryCode: string,
  productIds: ReadonlySet<string>,
  answer: PickupAnswer,
): void {
  for (const store of answer.stores) {
    for (const productId of productIds) {
      const key = formatTargetKey({ countryCode, productId, storeId: store.storeNumber });
      const target = run.state.targets[key];
      if (target === undefined) continue;
      target.last_covered_at = answer.observedAt;
      target.consecutive_failures = 0;
      target.next_due_at = answer.observedAt;
      run.covered.add(key);
      run.failed.delete(key);
    }
  }
}

/** Records a failed request on its targets: they read as stale, and back off unless blocked. */
function failTargets(
  run: CheckRun,
  targets: readonly PlanTarget[],
  failure: UpstreamFailure,
  at: number,
): void {
  const { deps, state } = run;
  const message = deps.describeFailure(failure);
  const isBlock = failure.kind === 'blocked' || failure.kind === 'html';
  for (const planned of targets) {
    const key = formatTargetKey(planned);
    const target = state.targets[key];
    if (target === undefined) continue;
    // A block is paced by the Mac's cool-down; other failures back off per target.
    const backoffMs = isBlock
      ? 0
      : computeBackoff(
          target.consecutive_failures,
          { baseMs: deps.intervalMs, maxMs: MAX_BACKOFF_MS },
          deps.random,
        );
    target.consecutive_failures += 1;
    target.last_failure_at = at;
    target.last_failure_message = message;
    target.next_due_at = Math.max(at + backoffMs, state.address.cool_down_until ?? at);
    run.failed.add(key);
  }
  state.failing_since ??= at;
  state.failure_message = message;
}

function describeSkip(tally: AskTally, state: LocalWatchState): string {
  if (tally.skipped === 'cooling_down') {
    return `Apple refused this Mac: cooling down until ${new Date(state.address.cool_down_until ?? 0).toISOString()}`;
  }
  return "this Mac's request budget is spent for now (Apple blocks faster callers)";
}

function log(
  deps: CheckDeps,
  at: number,
  request: PlannedRequest | null,
  result: LocalCheckLog['result'],
  detail: string,
  where: string | null = null,
  requests = 0,
  changes = 0,
  alerts = 0,
): void {
  deps.onCheck?.({
    at,
    countryCode: request?.countryCode ?? null,
    productIds: request?.productIds ?? [],
    where,
    result,
    detail,
    requests,
    changes,
    alerts,
  });
}
