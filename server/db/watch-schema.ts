import type { Generated } from 'kysely';

// The watch engine's own tables: what it asks, through which addresses, and what it learned
// about Apple's answers; Database (schema.ts) lists them with the other tables.
/** One upstream request's worth of work: a product type at a store in a country. */
export type PollTargetsTable = {
  country_code: string;
  product_id: string;
  store_id: string;
  last_requested_at: Date | null;
  /** Last time any answer (its own or a neighbour's) covered this store. */
  last_covered_at: Date | null;
  /** Last time an alerting sweep covered the preferred parts of its alerting searches. */
  last_alert_covered_at: Date | null;
  next_due_at: Generated<Date>;
  consecutive_failures: Generated<number>;
  last_failure_kind: string | null;
};

/** Health and cool-down of one upstream host. */
export type UpstreamHostsTable = {
  host: string;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  last_failure_kind: string | null;
  cool_down_until: Date | null;
  consecutive_failures: Generated<number>;
};

/** One egress address (the direct route or a proxy): its token bucket and cool-down, shared by every process. */
export type EgressAddressesTable = {
  label: string;
  kind: string;
  rate_per_minute: number;
  burst: number;
  tokens: number;
  refilled_at: Date;
  cool_down_until: Date | null;
  consecutive_blocks: Generated<number>;
  last_block_at: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  last_failure_kind: string | null;
  requests: Generated<string>;
  last_seen_at: Generated<Date>;
};

/** A store used as a location seed, and the stores its last answer listed. */
export type LocationSeedsTable = {
  country_code: string;
  seed_store_id: string;
  location: string;
  store_ids: string[] | null;
  learned_at: Date | null;
  last_requested_at: Date | null;
  consecutive_failures: Generated<number>;
  last_failure_kind: string | null;
  next_due_at: Generated<Date>;
};

/** The endpoint shape a country answers on, and why. */
export type CountryEndpointsTable = {
  country_code: string;
  shape: string;
  reason: string;
  switched_at: Date;
  /** The shape in use answered 541: the other is asked next, once the address may ask again. */
  suspect_shape: string | null;
  suspect_since: Date | null;
  /** When the shape not in use was last asked. */
  other_probed_at: Date | null;
};

/** A part Apple called invalid or not buyable in a country: left out of requests for a while. */
export type InvalidPartsTable = {
  country_code: string;
  part_number: string;
  product_id: string;
  display_name: string;
  reason: string;
  found_at: Date;
};

/**
 * A part answered `ineligible` at every listed store: answers in a row, and when that retired
 * it in the country. It holds while the catalog keeps the model (product type and name).
 */
export type UpstreamRetiredPartsTable = {
  country_code: string;
  part_number: string;
  product_id: string;
  display_name: string;
  ineligible_answers: Generated<number>;
  last_answer_at: Date;
  retired_at: Date | null;
};

/** A log of upstream requests, for recent error rates. */
export type UpstreamRequestsTable = {
  id: Generated<string>;
  host: string;
  requested_at: Date;
  is_success: boolean;
  failure_kind: string | null;
  duration_ms: number | null;
};

/** A running watch worker and the upstream requests a minute it may send. */
export type WatchWorkersTable = {
  id: string;
  label: string;
  budget_per_minute: number;
  started_at: Generated<Date>;
  last_seen_at: Generated<Date>;
};

/** The freshness the last planned cycle's budget gives (one row). */
export type WatchFreshnessTable = {
  id: Generated<boolean>;
  planned_at: Date;
  interval_ms: number;
  workers: number;
  budget_per_minute: number;
  alerting_groups: number;
  page_only_groups: number;
  alerting_fresh_within_ms: number;
  all_fresh_within_ms: number;
};
