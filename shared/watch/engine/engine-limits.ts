// The watch engine's limits, defined once for the server's poller and the local loop (the Mac,
// `shelfwatch watch`): both ask Apple the same way, so both stop, hold and back off alike.

/**
 * Parts in one request unless set (UPSTREAM_PARTS_PER_REQUEST, the local loop's option), the
 * control part included: Apple answers at most 20 parts a request and leaves the rest out
 * (Dgon5000/iphone-stock-watch-hk, MAX_PARTS_PER_REQUEST = 20, measured; jhdavis789 sends 20
 * in the US: ../shared/reference/apple/README.md, "What real 2025-2026 answers show").
 */
export const DEFAULT_PARTS_PER_REQUEST = 20;

/** Most extra requests one planned request may spend finding refused parts. */
export const MAX_BISECTION_REQUESTS = 16;

/** Stores an answer is expected to list besides the seed's own (Apple lists about a dozen). */
export const EXPECTED_NEIGHBOURS_PER_ANSWER = 11;

/** The control part is the one seen available at the most stores within this window. */
export const CONTROL_WINDOW_MS = 60 * 60_000;

/**
 * Answers in a row that must report a part `ineligible` at every listed store before it counts
 * as retired in that country (one such answer could be a glitch; Apple keeps answering a
 * retired part that way: jhdavis789/apple-availability-dashboard, 2026-09-07).
 */
export const RETIRE_AFTER_ANSWERS = 2;

/** How long a part Apple refused stays out of requests unless the catalog changes first. */
export const INVALID_PART_HOLD_MS = 24 * 60 * 60_000;

/** Longest back-off after failures that are not blocks (a seed's, or a local target's). */
export const MAX_FAILURE_BACKOFF_MS = 30 * 60_000;
