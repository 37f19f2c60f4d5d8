import { chooseControlPart } from '#shared/upstream/answer-checks.ts';
import {
  publicWatchStatusSchema,
  type OperatorWatchStatus,
  type PublicWatchStatus,
  type UpstreamHostStatus,
} from '#shared/api/watch.ts';
import type { Executor } from '#server/db/database.ts';
import { listEgressAddresses } from '#server/db/repositories/egress-repository.ts';
import {
  findBusiestParts,
  listCountryEndpoints,
  listInvalidParts,
  listRetiredParts,
} from '#server/db/repositories/upstream-knowledge-repository.ts';
import {
  countRecentRequests,
  listUpstreamHosts,
} from '#server/db/repositories/upstream-requests-repository.ts';
import { findWatchFreshness } from '#server/db/repositories/watch-workers-repository.ts';
import { describeFreshness } from '#shared/watch/index.ts';
import { listCountryFreshness, NO_GROUPS } from './country-freshness.ts';
import { computeStaleAfterMs, isPlannerSilent } from './freshness-status.ts';
import { CONTROL_WINDOW_MS, INVALID_PART_HOLD_MS } from '#shared/watch/engine/index.ts';
import { WORKER_LIVENESS_MS } from './plan-cycle.ts';

/** Window of the status page's error rate. */
const ERROR_RATE_WINDOW_MS = 15 * 60_000;
// Error rates are only telling with a few requests behind them.
const MIN_REQUESTS_FOR_ERROR_RATE = 3;
const DELAYED_ERROR_RATE = 0.5;
const DELAYED_CONSECUTIVE_FAILURES = 3;

/**
 * The status page as the operator sees it: per upstream host its health, per egress address its
 * budget and cool-down (labels only: proxy credentials never leave the process), per watched
 * country the endpoint shape in use and why with its control part and how fresh its checks are,
 * the parts Apple refused, and the freshness the live addresses' budget promises. Anyone else
 * gets toPublicWatchStatus of it.
 */
export async function computeWatchStatus(
  db: Executor,
  options: {
    now?: number;
    preferredShape?: 'pickup-message' | 'fulfillment-messages';
    /** UPSTREAM_CONTROL_PARTS: shown in place of the part the planner would pick. */
    controlParts?: ReadonlyMap<string, string>;
  } = {},
): Promise<OperatorWatchStatus> {
  const now = options.now ?? Date.now();
  const preferred = options.preferredShape ?? 'pickup-message';
  const [hosts, recent, freshness, addresses, endpoints, invalid, busiest, retired] =
    await Promise.all([
      listUpstreamHosts(db),
      countRecentRequests(db, new Date(now - ERROR_RATE_WINDOW_MS)),
      findWatchFreshness(db),
      listEgressAddresses(db),
      listCountryEndpoints(db),
      listInvalidParts(db, new Date(now - INVALID_PART_HOLD_MS)),
      findBusiestParts(db, new Date(now - CONTROL_WINDOW_MS)),
      listRetiredParts(db),
    ]);
  const retiredKeys = new Set(retired.map((row) => `${row.country_code}:${row.part_number}`));
  const staleAfterMs = computeStaleAfterMs(freshness);
  const countryFreshness = await listCountryFreshness(db, new Date(now - staleAfterMs));
  let overdueGroups = 0;
  for (const country of countryFreshness.values()) overdueGroups += country.overdue_groups;
  const recentByHost = new Map(recent.map((row) => [row.host, row]));
  const statuses: UpstreamHostStatus[] = hosts.map((host) => {
    const counts = recentByHost.get(host.host);
    const total = counts?.total ?? 0;
    const isCoolingDown = host.cool_down_until !== null && host.cool_down_until.getTime() > now;
    return {
      host: host.host,
      last_success_at: host.last_success_at?.toISOString() ?? null,
      last_failure_at: host.last_failure_at?.toISOString() ?? null,
      last_failure_kind: host.last_failure_kind,
      requests_last_15_minutes: total,
      error_rate: total === 0 ? 0 : (counts?.failures ?? 0) / total,
      cool_down_until: isCoolingDown ? host.cool_down_until!.toISOString() : null,
      is_cooling_down: isCoolingDown,
    };
  });
  const liveSince = now - WORKER_LIVENESS_MS;
  const addressStatuses = addresses.map((address) => {
    const isCoolingDown =
      address.cool_down_until !== null && address.cool_down_until.getTime() > now;
    const earnedFrom = Math.max(address.refilled_at.getTime(), 0);
    const earned = (Math.max(0, now - earnedFrom) / 60_000) * address.rate_per_minute;
    return {
      label: address.label,
      kind: address.kind === 'proxy' ? ('proxy' as const) : ('direct' as const),
      rate_per_minute: address.rate_per_minute,
      burst: address.burst,
      tokens: Math.max(0, Math.floor(Math.min(address.burst, address.tokens + earned) * 10) / 10),
      is_cooling_down: isCoolingDown,
      cool_down_until: isCoolingDown ? address.cool_down_until!.toISOString() : null,
      consecutive_blocks: address.consecutive_blocks,
      last_success_at: address.last_success_at?.toISOString() ?? null,
      last_failure_kind: address.last_failure_kind,
      is_live: address.last_seen_at.getTime() >= liveSince,
    };
  });
  const live = addressStatuses.filter((address) => address.is_live);
  // With every live address cooling down nothing can be asked: alerts wait.
  const isEveryAddressCooling = live.length > 0 && live.every((address) => address.is_cooling_down);
  const isErroringHost = hosts.some((host, index) => {
    const status = statuses[index];
    const isErroring =
      status.requests_last_15_minutes >= MIN_REQUESTS_FOR_ERROR_RATE &&
      status.error_rate >= DELAYED_ERROR_RATE;
    return (
      (live.length === 0 && status.is_cooling_down) ||
      isErroring ||
      host.consecutive_failures >= DELAYED_CONSECUTIVE_FAILURES
    );
  });
  const endpointByCountry = new Map(endpoints.map((row) => [row.country_code, row]));
  const countryCodes = [
    ...new Set([...countryFreshness.keys(), ...endpointByCountry.keys()]),
  ].sort();
  const isPlannerStalled = isPlannerSilent(freshness, now);
  return {
    view: 'operator',
    is_delayed: isEveryAddressCooling || isErroringHost || isPlannerStalled || overdueGroups > 0,
    checked_at: new Date(now).toISOString(),
    hosts: statuses,
    addresses: addressStatuses,
    countries: countryCodes.map((countryCode) => {
      const row = endpointByCountry.get(countryCode);
      return {
        country_code: countryCode,
        shape: (row?.shape ?? preferred) as 'pickup-message' | 'fulfillment-messages',
        reason: row?.reason ?? `${preferred} is asked first (the default)`,
        since: row?.switched_at.toISOString() ?? null,
        control_part: chooseControlPart({
          configured: options.controlParts?.get(countryCode),
          busiest: busiest.get(countryCode),
          isRetired: (part) => retiredKeys.has(`${countryCode}:${part}`),
        }),
        freshness: countryFreshness.get(countryCode) ?? NO_GROUPS,
      };
    }),
    invalid_parts: invalid.map((row) => ({
      country_code: row.country_code,
      part_number: row.part_number,
      display_name: row.display_name,
      reason: row.reason,
      found_at: row.found_at.toISOString(),
      retry_after: new Date(row.found_at.getTime() + INVALID_PART_HOLD_MS).toISOString(),
    })),
    freshness:
      freshness === undefined
        ? null
        : {
            promise: describeFreshness({
              alertingFreshWithinMs: freshness.alerting_fresh_within_ms,
              allFreshWithinMs: freshness.all_fresh_within_ms,
            }),
            workers: freshness.workers,
            budget_per_minute: freshness.budget_per_minute,
            alerting_groups: freshness.alerting_groups,
            page_only_groups: freshness.page_only_groups,
            last_planned_at: freshness.planned_at.toISOString(),
            is_planner_stalled: isPlannerStalled,
            overdue_groups: overdueGroups,
          },
  };
}

/**
 * What anyone may read of the status: the public schema keeps whether alerts may be delayed,
 * the countries, refused parts and freshness promise, and drops every key it does not name
 * (hosts, addresses, the workers' budget, the catalog sync's origin and errors, the directory
 * reads' errors).
 */
export function toPublicWatchStatus(status: OperatorWatchStatus): PublicWatchStatus {
  return publicWatchStatusSchema.parse({ ...status, view: 'public' });
}
