// The watch engine's limits, defined once for the server's poller and the local loop (the Mac,
// `shelfwatch watch`): both ask Apple the same way, so both stop, hold and back off alike.

/** Most extra requests one planned request may spend finding refused parts. */
export const MAX_BISECTION_REQUESTS = 16;

/** Stores an answer is expected to list besides the seed's own (Apple lists about a dozen). */
export const EXPECTED_NEIGHBOURS_PER_ANSWER = 11;

/** The control part is the one seen available at the most stores within this window. */
export const CONTROL_WINDOW_MS = 60 * 60_000;

/** How long a part Apple refused stays out of requests unless the catalog changes first. */
export const INVALID_PART_HOLD_MS = 24 * 60 * 60_000;

/** Longest back-off after failures that are not blocks (a seed's, or a local target's). */
export const MAX_FAILURE_BACKOFF_MS = 30 * 60_000;
