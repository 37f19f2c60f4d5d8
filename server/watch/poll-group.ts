import type { Db } from '#server/db/database.ts';
import { listProductModels } from '#server/db/repositories/catalog-repository.ts';
import {
  findPollTarget,
  findUpstreamHost,
  recordTargetFailure,
  recordUpstreamRequest,
  type PollTargetRow,
} from '#server/db/repositories/watch-repository.ts';
import {
  computeBackoff,
  fetchPickupAvailability,
  resolveCountryBase,
  type EndpointShape,
  type FetchLike,
  type TokenBucketLimiter,
} from '#shared/upstream/index.ts';
import {
  decidePoll,
  type PollGroupKey,
  type PollSkipReason,
  type PollTargetState,
} from '#shared/watch/index.ts';
import { applyPickupAnswer, type AnswerReport } from './apply-answer.ts';

/** Everything polling needs from its host process. */
export type PollerDeps = {
  db: Db;
  fetch: FetchLike;
  now: () => number;
  random: () => number;
  /** One token bucket per upstream host, shared by every poll in this process. */
  limiter: TokenBucketLimiter;
  baseUrl: string;
  shape: EndpointShape;
  intervalMs: number;
  quietWindowMs: number;
  /** Longest backoff of a failing group. */
  maxBackoffMs?: number;
};

/** What happened to one group's poll. */
export type PollOutcome =
  | { kind: 'polled'; report: AnswerReport }
  | { kind: 'failed'; failureKind: string; coolDownSeconds: number }
  | { kind: 'skipped'; reason: PollSkipReason | 'gone' | 'no_models' };

const DEFAULT_MAX_BACKOFF_MS = 30 * 60_000;

/** Upstream host a country's requests go to (the client sends CN to its own host with Apple). */
export function resolveUpstreamHost(baseUrl: string, countryCode: string): string {
  return new URL(resolveCountryBase(baseUrl, countryCode)).host;
}

/** A poll target row as the planner sees it. */
export function toTargetState(row: PollTargetRow, baseUrl: string): PollTargetState {
  return {
    countryCode: row.country_code,
    productId: row.product_id,
    storeId: row.store_id,
    host: resolveUpstreamHost(baseUrl, row.country_code),
    lastRequestedAt: row.last_requested_at?.getTime() ?? null,
    lastCoveredAt: row.last_covered_at?.getTime() ?? null,
    nextDueAt: row.next_due_at.getTime(),
  };
}

/** Thrown from inside the rate limiter when waiting for a token made the request pointless. */
class PollSkipped extends Error {
  constructor(readonly reason: PollSkipReason | 'gone') {
    super(`poll skipped: ${reason}`);
  }
}

/**
 * Polls one group: re-checks, after waiting for a token, that the host is not cooling down
 * and no neighbour's answer covered the group meanwhile, asks upstream for every model of
 * the type with nearby stores, then applies the answer or records the failure (host
 * cool-down, group backoff). A failure writes no status, so nothing turns `unavailable`.
 */
export async function pollGroup(
  deps: PollerDeps,
  group: PollGroupKey,
  cycleStartedAt: number,
): Promise<PollOutcome> {
  const key = {
    country_code: group.countryCode,
    product_id: group.productId,
    store_id: group.storeId,
  };
  const host = resolveUpstreamHost(deps.baseUrl, group.countryCode);
  const check = async (): Promise<PollSkipReason | 'gone' | null> => {
    const row = await findPollTarget(deps.db, key);
    if (row === undefined) return 'gone';
    const hostRow = await findUpstreamHost(deps.db, host);
    const coolDownUntil = hostRow?.cool_down_until?.getTime();
    const decision = decidePoll(toTargetState(row, deps.baseUrl), {
      now: deps.now(),
      cycleStartedAt,
      coolDownUntilByHost: new Map(coolDownUntil === undefined ? [] : [[host, coolDownUntil]]),
    });
    return decision.action === 'poll' ? null : decision.reason;
  };
  const early = await check();
  if (early !== null) return { kind: 'skipped', reason: early };
  const models = await listProductModels(deps.db, group.productId, group.countryCode);
  if (models.length === 0) return { kind: 'skipped', reason: 'no_models' };

  const rateLimiter = {
    acquire: async (requestHost: string): Promise<void> => {
      await deps.limiter.acquire(requestHost);
      const late = await check();
      if (late !== null) throw new PollSkipped(late);
    },
  };
  const startedAt = deps.now();
  let result: Awaited<ReturnType<typeof fetchPickupAvailability>>;
  try {
    result = await fetchPickupAvailability(
      { fetch: deps.fetch, now: deps.now, rateLimiter, baseUrl: deps.baseUrl, shape: deps.shape },
      {
        countryCode: group.countryCode,
        storeNumber: group.storeId,
        partNumbers: models.map((model) => model.part_number),
        searchNearby: true,
      },
    );
  } catch (error) {
    if (error instanceof PollSkipped) return { kind: 'skipped', reason: error.reason };
    throw error;
  }
  const finishedAt = deps.now();
  if (result.ok) {
    await recordUpstreamRequest(deps.db, {
      host,
      requestedAt: new Date(startedAt),
      durationMs: finishedAt - startedAt,
      failureKind: null,
      coolDownUntil: null,
    });
    const report = await applyPickupAnswer(deps.db, group, result.value, {
      quietWindowMs: deps.quietWindowMs,
    });
    return { kind: 'polled', report };
  }
  const { failure } = result;
  const coolDownMs = failure.coolDownSeconds * 1000;
  if (coolDownMs > 0) deps.limiter.pauseHost(host, coolDownMs);
  await recordUpstreamRequest(deps.db, {
    host,
    requestedAt: new Date(startedAt),
    durationMs: finishedAt - startedAt,
    failureKind: failure.kind,
    coolDownUntil: coolDownMs > 0 ? new Date(finishedAt + coolDownMs) : null,
  });
  const row = await findPollTarget(deps.db, key);
  const backoffMs = computeBackoff(
    row?.consecutive_failures ?? 0,
    { baseMs: deps.intervalMs, maxMs: deps.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS },
    deps.random,
  );
  await recordTargetFailure(deps.db, key, {
    at: new Date(startedAt),
    kind: failure.kind,
    nextDueAt: new Date(finishedAt + Math.max(backoffMs, coolDownMs)),
  });
  return { kind: 'failed', failureKind: failure.kind, coolDownSeconds: failure.coolDownSeconds };
}
