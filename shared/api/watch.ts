import { z } from 'zod';
import { catalogSyncStatusSchema } from './catalog.ts';

/** Query of GET /v2/searches/{id}/history: how many days back, 1 to 30 (default 7). */
export const searchHistoryQuerySchema = z.object({
  days: z.coerce
    .number({ message: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be between 1 and 30')
    .max(30, 'must be between 1 and 30')
    .default(7),
});
/** History query after defaults. */
export type SearchHistoryQuery = z.infer<typeof searchHistoryQuerySchema>;

/** One recorded change of a model's pickup status at a store. */
export const restockEventSchema = z.object({
  id: z.string(),
  store_id: z.string(),
  store_name: z.string(),
  /** 0 at the search's own store. */
  distance_miles: z.number().nullable(),
  part_number: z.string(),
  display_name: z.string(),
  from_status: z.enum(['available', 'unavailable', 'ineligible']).nullable(),
  to_status: z.enum(['available', 'unavailable', 'ineligible']),
  pickup_quote: z.string().nullable(),
  observed_at: z.string(),
});
/** A restock-history event. */
export type RestockEvent = z.infer<typeof restockEventSchema>;

/** Restocks (changes to available) on one UTC day, for the chart. */
export const dailyRestocksSchema = z.object({ date: z.string(), restocks: z.number().int() });

/** GET /v2/searches/{id}/history: the search's stores and models, newest event first. */
export const searchHistorySchema = z.object({
  days: z.number().int(),
  events: z.array(restockEventSchema),
  /** One entry per day of the period, oldest first, zero when nothing restocked. */
  daily: z.array(dailyRestocksSchema),
  last_checked_at: z.string().nullable(),
  /** True when checks for this search are failing or late: alerts may be delayed. */
  is_stale: z.boolean(),
});
/** A search's restock history. */
export type SearchHistory = z.infer<typeof searchHistorySchema>;

/** Health of one upstream host as the watcher sees it. */
export const upstreamHostStatusSchema = z.object({
  host: z.string(),
  last_success_at: z.string().nullable(),
  last_failure_at: z.string().nullable(),
  last_failure_kind: z.string().nullable(),
  requests_last_15_minutes: z.number().int(),
  /** Share of the last 15 minutes' requests that failed, 0 to 1. */
  error_rate: z.number(),
  /** Set while the watcher leaves the host alone after a block. */
  cool_down_until: z.string().nullable(),
  is_cooling_down: z.boolean(),
});
/** One host's status. */
export type UpstreamHostStatus = z.infer<typeof upstreamHostStatusSchema>;

/** What the request budget of all live workers promises, as the last planned cycle saw it. */
export const publicWatchFreshnessSchema = z.object({
  /** e.g. "every group fresh within 6 min (alerting groups within 2 min)". */
  promise: z.string(),
  alerting_groups: z.number().int(),
  page_only_groups: z.number().int(),
  last_planned_at: z.string(),
  /** No cycle planned for longer than two intervals: the poller stalled or no worker runs. */
  is_planner_stalled: z.boolean(),
  /** Groups whose last coverage is older than the promise: each makes alerts late. */
  overdue_groups: z.number().int(),
});

/** The promise with the budget behind it (operator view): how many workers and requests. */
export const watchFreshnessSchema = publicWatchFreshnessSchema.extend({
  workers: z.number().int(),
  budget_per_minute: z.number(),
});

/** One egress address (direct by machine name, a proxy by host and port) and its budget. */
export const egressAddressStatusSchema = z.object({
  label: z.string(),
  kind: z.enum(['direct', 'proxy']),
  rate_per_minute: z.number(),
  burst: z.number().int(),
  /** Requests it may send back to back right now. */
  tokens: z.number(),
  is_cooling_down: z.boolean(),
  cool_down_until: z.string().nullable(),
  /** Blocks in a row: each doubles the next cool-down. */
  consecutive_blocks: z.number().int(),
  last_success_at: z.string().nullable(),
  last_failure_kind: z.string().nullable(),
  /** A live watcher declared it in the last two minutes. */
  is_live: z.boolean(),
});
/** One egress address's status. */
export type EgressAddressStatus = z.infer<typeof egressAddressStatusSchema>;

/** How recently a country's store groups were checked. */
export const countryFreshnessSchema = z.object({
  /** Store groups watched there (a product at a store and its neighbours). */
  groups: z.number().int(),
  /** Groups checked longer ago than the promise allows: alerts there are late. */
  overdue_groups: z.number().int(),
  /** Groups not checked yet (new searches wait for their first turn). */
  unchecked_groups: z.number().int(),
  /** The least and the most recent check of a group there; null before the first. */
  oldest_check_at: z.string().nullable(),
  newest_check_at: z.string().nullable(),
});
/** One country's freshness. */
export type CountryFreshness = z.infer<typeof countryFreshnessSchema>;

/** A watched country: the endpoint shape it is asked on and why, and how fresh its checks are. */
export const countryEndpointStatusSchema = z.object({
  country_code: z.string(),
  shape: z.enum(['pickup-message', 'fulfillment-messages']),
  reason: z.string(),
  since: z.string().nullable(),
  /** Added to each request; an answer where it is unavailable everywhere is not believed. */
  control_part: z.string().nullable(),
  freshness: countryFreshnessSchema,
});

/** A part Apple refused, left out of that country's requests for a while. */
export const invalidPartStatusSchema = z.object({
  country_code: z.string(),
  part_number: z.string(),
  display_name: z.string(),
  reason: z.string(),
  found_at: z.string(),
  retry_after: z.string(),
});

/**
 * The catalog sync as anyone sees it: when and whether it worked and what it changed; where it
 * read from and its error texts (which name the upstream's address) are the operator's.
 */
export const publicCatalogSyncStatusSchema = catalogSyncStatusSchema.omit({
  origin: true,
  error: true,
  page_problems: true,
  pages_retired: true,
});

/**
 * The last read of one country's store directory (`rsp-web/store-list`): when, what came of it
 * (`read`, `not_listed` for Apple's 404, `failed`), and the stores it added, closed (no longer
 * listed) and reopened (listed again), by store number.
 */
export const directorySyncStatusSchema = z.object({
  country_code: z.string(),
  locale: z.string(),
  synced_at: z.string(),
  outcome: z.enum(['read', 'not_listed', 'failed']),
  http_status: z.number().int().nullable(),
  /** Stores the locale's directory listed. */
  listed: z.number().int(),
  added: z.array(z.string()),
  closed: z.array(z.string()),
  reopened: z.array(z.string()),
  /** The last read that applied; null before one did. */
  last_success_at: z.string().nullable(),
});
/** One country's last directory read. */
export type DirectorySyncStatus = z.infer<typeof directorySyncStatusSchema>;

/** The operator's view of it adds why a read failed (which can name the upstream's address). */
export const operatorDirectorySyncStatusSchema = directorySyncStatusSchema.extend({
  error: z.string().nullable(),
});

/**
 * GET /v2/status for anyone: whether alerts may be delayed, each country's endpoint shape and
 * freshness, the parts Apple refused and the freshness promise. No host, address or budget.
 */
export const publicWatchStatusSchema = z.object({
  view: z.literal('public'),
  is_delayed: z.boolean(),
  checked_at: z.string(),
  countries: z.array(countryEndpointStatusSchema),
  invalid_parts: z.array(invalidPartStatusSchema),
  /** Null until a worker planned a cycle. */
  freshness: publicWatchFreshnessSchema.nullable(),
  /** The last catalog sync from Apple's buy pages (server only; null before any). */
  catalog_sync: publicCatalogSyncStatusSchema.nullable().optional(),
  /** The last store directory read per country (server only; empty before any). */
  directory_sync: z.array(directorySyncStatusSchema).optional(),
});
/** The status anyone may read. */
export type PublicWatchStatus = z.infer<typeof publicWatchStatusSchema>;

/**
 * GET /v2/status with METRICS_TOKEN as a bearer token: the public view plus each upstream
 * host's health, each egress address (labelled by host and port) with its budget and
 * cool-down, the workers' budget and the catalog sync's origin and errors.
 */
export const operatorWatchStatusSchema = publicWatchStatusSchema.extend({
  view: z.literal('operator'),
  freshness: watchFreshnessSchema.nullable(),
  catalog_sync: catalogSyncStatusSchema.nullable().optional(),
  directory_sync: z.array(operatorDirectorySyncStatusSchema).optional(),
  hosts: z.array(upstreamHostStatusSchema),
  addresses: z.array(egressAddressStatusSchema),
});
/** The status an operator reads. */
export type OperatorWatchStatus = z.infer<typeof operatorWatchStatusSchema>;

/** GET /v2/status: the public view, or the operator view for a request with METRICS_TOKEN. */
export const watchStatusSchema = z.discriminatedUnion('view', [
  publicWatchStatusSchema,
  operatorWatchStatusSchema,
]);
/** Either view of the watch engine's status. */
export type WatchStatus = z.infer<typeof watchStatusSchema>;
