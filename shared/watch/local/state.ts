import { z } from 'zod';

// The local watch loop's memory, kept by its host (the app store, the terminal watcher's
// file) as plain JSON. Times are epoch milliseconds. It is validated on load: anything that
// does not parse starts fresh, since it only holds what the next checks will learn again.

const knownStatusSchema = z.enum(['available', 'unavailable', 'ineligible']);

const snapshotSchema = z.object({
  status: knownStatusSchema,
  changed_at: z.number(),
  observed_at: z.number(),
  quote: z.string().nullable(),
});

const targetSchema = z.object({
  country_code: z.string(),
  product_id: z.string(),
  store_id: z.string(),
  last_requested_at: z.number().nullable(),
  last_covered_at: z.number().nullable(),
  next_due_at: z.number(),
  consecutive_failures: z.number().int().min(0),
  last_failure_at: z.number().nullable(),
  last_failure_message: z.string().nullable(),
});

const neighbourSchema = z.object({
  store_id: z.string(),
  store_name: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  distance_miles: z.number().nullable(),
});

const seedSchema = z.object({
  country_code: z.string(),
  /** What was asked: the seed store's postal code, or its city. */
  location: z.string(),
  /** Stores the last answer listed. */
  store_ids: z.array(z.string()),
  learned_at: z.number(),
});

const endpointSchema = z.object({
  shape: z.enum(['fulfillment-messages', 'pickup-message']),
  reason: z.string(),
  switched_at: z.number(),
  suspect_shape: z.enum(['fulfillment-messages', 'pickup-message']).nullable(),
  suspect_since: z.number().nullable(),
  other_probed_at: z.number().nullable(),
});

const invalidPartSchema = z.object({
  country_code: z.string(),
  part_number: z.string(),
  product_id: z.string(),
  reason: z.string(),
  found_at: z.number(),
});

/**
 * A part answered `ineligible` at every listed store: counted per answer in a row, retired in
 * the country once there were RETIRE_AFTER_ANSWERS of them, for as long as the catalog keeps
 * the model it was found for (same product type and name).
 */
const retiredPartSchema = z.object({
  country_code: z.string(),
  part_number: z.string(),
  product_id: z.string(),
  display_name: z.string(),
  ineligible_answers: z.number().int().min(0),
  last_answer_at: z.number(),
  retired_at: z.number().nullable(),
});

const addressSchema = z.object({
  cool_down_until: z.number().nullable(),
  /** Blocks in a row: each doubles the next cool-down, up to an hour. */
  consecutive_blocks: z.number().int().min(0),
  last_block_at: z.number().nullable(),
});

const eventSchema = z.object({
  id: z.string(),
  store_id: z.string(),
  store_name: z.string(),
  part_number: z.string(),
  from_status: knownStatusSchema.nullable(),
  to_status: knownStatusSchema,
  quote: z.string().nullable(),
  at: z.number(),
});

/** One alert as raised, and as a held notification keeps it until its release. */
export const localAlertSchema = z.object({
  searchId: z.string(),
  productType: z.string(),
  storeId: z.string(),
  storeName: z.string(),
  partNumber: z.string(),
  displayName: z.string(),
  pickupQuote: z.string().nullable(),
  distanceMiles: z.number().nullable(),
  /** The store's country, for the unit its distance is shown in (absent in older states: mi). */
  countryCode: z.string().optional(),
  observedAt: z.number(),
});

/** Calm volume of one search (issue 42): its last release and the notification it holds. */
const cadenceSchema = z.object({
  /** When the latest notification left or is due (as the server's `last_release_at`). */
  last_release_at: z.number().nullable(),
  /** When the held notification leaves; null when none waits. */
  pending_release_at: z.number().nullable(),
  /** What the held notification carries, oldest first. */
  held: z.array(localAlertSchema),
});

/** Schema of the loop's persisted memory. */
export const localWatchStateSchema = z.object({
  version: z.literal(1),
  /** Last known status per `store|part`. */
  snapshots: z.record(z.string(), snapshotSchema),
  /** Planner state per group key (country:product:store). */
  targets: z.record(z.string(), targetSchema),
  /** Each store's neighbours, nearest first, from its own last answer. */
  neighbours: z.record(z.string(), z.array(neighbourSchema)),
  /** Last alert time per `search|store|part`, for the quiet window. */
  alerts: z.record(z.string(), z.number()),
  /** Calm volume per search id: last release, held notification (none in older states). */
  cadence: z.record(z.string(), cadenceSchema).default({}),
  /** Recorded changes, oldest first, bounded by count and age. */
  events: z.array(eventSchema),
  /** Cool-down end per upstream host (states saved before the Mac counted as one address). */
  cool_downs: z.record(z.string(), z.number()).default({}),
  /** What answers taught per seed store: the stores its location's answer lists. */
  seeds: z.record(z.string(), seedSchema).default({}),
  /** Endpoint shape memory per country. */
  endpoints: z.record(z.string(), endpointSchema).default({}),
  /** Parts Apple refused, per `country|part`, left out of requests for a while. */
  invalid_parts: z.record(z.string(), invalidPartSchema).default({}),
  /** Parts on their way to retirement or retired, per `country|part` (none in older states). */
  retired_parts: z.record(z.string(), retiredPartSchema).default({}),
  /**
   * Request times a state saved before the machine's shared budget (request-budget.ts) kept:
   * the first check hands them to the budget, and they stay empty after.
   */
  recent_requests: z.array(z.number()).default([]),
  /** This Mac's standing at Apple: one address, one budget, one cool-down. */
  address: addressSchema.default({
    cool_down_until: null,
    consecutive_blocks: 0,
    last_block_at: null,
  }),
  last_check_at: z.number().nullable(),
  failing_since: z.number().nullable(),
  failure_message: z.string().nullable(),
  next_event_id: z.number().int().min(1),
});
/** The loop's persisted memory. */
export type LocalWatchState = z.infer<typeof localWatchStateSchema>;
/** One group's planner state. */
export type LocalTarget = z.infer<typeof targetSchema>;
/** One neighbour of a store. */
export type LocalNeighbour = z.infer<typeof neighbourSchema>;
/** What one seed's answers taught. */
export type LocalSeed = z.infer<typeof seedSchema>;
/** A country's endpoint shape memory as saved. */
export type LocalEndpoint = z.infer<typeof endpointSchema>;
/** A part Apple refused. */
export type LocalInvalidPart = z.infer<typeof invalidPartSchema>;
/** A part answered ineligible everywhere, and whether that retired it. */
export type LocalRetiredPart = z.infer<typeof retiredPartSchema>;
/** One search's calm-volume memory. */
export type LocalCadence = z.infer<typeof cadenceSchema>;
/** One recorded change. */
export type LocalEvent = z.infer<typeof eventSchema>;

/** Events kept at most, and for how long: enough for a month of history on a few searches. */
export const MAX_EVENTS = 2_000;
/** How long events are kept. */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60_000;

/** A state with nothing known yet. */
export function createEmptyWatchState(): LocalWatchState {
  return {
    version: 1,
    snapshots: {},
    targets: {},
    neighbours: {},
    alerts: {},
    cadence: {},
    events: [],
    cool_downs: {},
    seeds: {},
    endpoints: {},
    invalid_parts: {},
    retired_parts: {},
    recent_requests: [],
    address: { cool_down_until: null, consecutive_blocks: 0, last_block_at: null },
    last_check_at: null,
    failing_since: null,
    failure_message: null,
    next_event_id: 1,
  };
}

/**
 * Reads stored memory; anything unreadable gives an empty state instead of a crash. A state
 * saved before the Mac counted as one address keeps its latest per-host cool-down.
 */
export function parseWatchState(stored: unknown): LocalWatchState {
  const parsed = localWatchStateSchema.safeParse(stored);
  if (!parsed.success) return createEmptyWatchState();
  const state = parsed.data;
  const hostCoolDowns = Object.values(state.cool_downs);
  if (hostCoolDowns.length > 0) {
    const latest = Math.max(...hostCoolDowns);
    state.address.cool_down_until = Math.max(state.address.cool_down_until ?? 0, latest);
    state.cool_downs = {};
  }
  return state;
}

/** Key of an invalid part. */
export function invalidPartKey(countryCode: string, partNumber: string): string {
  return `${countryCode}|${partNumber}`;
}

/** Key of a snapshot. */
export function snapshotKey(storeId: string, partNumber: string): string {
  return `${storeId}|${partNumber}`;
}

/** Key of an alert record. */
export function alertKey(searchId: string, storeId: string, partNumber: string): string {
  return `${searchId}|${storeId}|${partNumber}`;
}

/** Drops events beyond the count and age limits. */
export function pruneEvents(state: LocalWatchState, now: number): void {
  const oldest = now - EVENT_RETENTION_MS;
  const kept = state.events.filter((event) => event.at >= oldest);
  state.events = kept.slice(Math.max(0, kept.length - MAX_EVENTS));
}
