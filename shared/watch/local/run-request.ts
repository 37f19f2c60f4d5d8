import type { LocalSearch } from '#shared/desktop/local-search.ts';
import { computeBackoff, type PickupAnswer, type UpstreamFailure } from '#shared/upstream/index.ts';
import {
  formatTargetKey,
  type PlanTarget,
  type PlannedRequest,
} from '#shared/watch/request-planner.ts';
import {
  askPlannedRequest,
  chooseSeedLocation,
  findCoveredProductIds,
  MAX_FAILURE_BACKOFF_MS,
  type AskTally,
} from '#shared/watch/engine/index.ts';
import { log, type CheckDeps, type LocalCycleReport } from './check-deps.ts';
import { gateAlerts } from './local-cadence.ts';
import { listAskedModels } from './local-plan.ts';
import { createLocalPort } from './local-port.ts';
import { applyAnswer } from './observe.ts';
import type { LocalWatchState } from './state.ts';

// One planned request of a local check: asked within the machine's budget, its believable
// answers filed (snapshots, neighbours, history, alerts, the seed's learned store list), its
// alerts passed through their searches' cadences, and its targets marked covered or failed.

/** One check in progress. */
export type CheckRun = {
  deps: CheckDeps;
  state: LocalWatchState;
  searches: readonly LocalSearch[];
  report: LocalCycleReport;
  /** Targets an answer of this check covered, and targets whose request failed. */
  covered: Set<string>;
  failed: Set<string>;
};

/** Asks one planned request and files what it brought back; 'stop' ends the check. */
export async function runRequest(
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
      deps.onAlert?.(alert);
    }
    // One answer's alerts of a search are one wave: it goes now or waits for the cadence.
    if (deps.isNotifying && applied.alerts.length > 0) {
      for (const batch of gateAlerts(state, run.searches, applied.alerts, deps.now())) {
        deps.notify(batch.searchId, batch.alerts);
      }
    }
  };
  const port = createLocalPort(
    {
      fetch: deps.fetch,
      now: deps.now,
      budget: deps.budget,
      baseUrl: deps.baseUrl,
      preferredShape: deps.shape,
    },
    state,
    { countryCode, where, models, findModel: (part) => findSearchedModel(run, countryCode, part) },
    onAnswer,
  );
  const tally = await askPlannedRequest(port, {
    models,
    control: control ?? null,
    partsPerRequest: deps.partsPerRequest,
  });
  report.requests += tally.requests;
  // A product type is covered once every part of it was answered or refused, in one answer
  // or across the halves of a bisection.
  const settled = new Set([...answeredParts, ...tally.refused]);
  const coveredProducts = new Set(findCoveredProductIds(models, request.productIds, settled));
  for (const answer of answers) coverTargets(run, countryCode, coveredProducts, answer);
  const finishedAt = deps.now();
  if (tally.skipped !== undefined) {
    report.skipped += pending.length;
    log(deps, finishedAt, request, 'skipped', describeSkip(tally, state), label);
    return 'stop';
  }
  const refused =
    (tally.refused.length === 0
      ? ''
      : `; left out ${tally.refused.join(', ')} (refused by Apple)`) +
    (tally.retired.length === 0
      ? ''
      : `; ${tally.retired.join(', ')} no longer sold (ineligible at every store)`);
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
  report.answered += 1;
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

/** The catalog model of a part of a searched product type in the country, if any. */
function findSearchedModel(
  run: CheckRun,
  countryCode: string,
  partNumber: string,
): { product_id: string; display_name: string } | undefined {
  for (const productId of new Set(run.searches.map((search) => search.product_type))) {
    const model = run.deps.catalog
      .listModels(productId, countryCode)
      .find((candidate) => candidate.part_number === partNumber);
    if (model !== undefined) return { product_id: productId, display_name: model.display_name };
  }
  return undefined;
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
          { baseMs: deps.intervalMs, maxMs: MAX_FAILURE_BACKOFF_MS },
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
    return `Apple refused requests from this machine: cooling down until ${new Date(state.address.cool_down_until ?? 0).toISOString()}`;
  }
  return "this machine's request budget is spent for now (Apple blocks faster callers)";
}
