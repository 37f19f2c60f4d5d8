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
  /** Recorded changes, oldest first, bounded by count and age. */
  events: z.array(eventSchema),
  /** Cool-down end per upstream host. */
  cool_downs: z.record(z.string(), z.number()),
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
    events: [],
    cool_downs: {},
    last_check_at: null,
    failing_since: null,
    failure_message: null,
    next_event_id: 1,
  };
}

/** Reads stored memory; anything unreadable gives an empty state instead of a crash. */
export function parseWatchState(stored: unknown): LocalWatchState {
  const parsed = localWatchStateSchema.safeParse(stored);
  return parsed.success ? parsed.data : createEmptyWatchState();
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
