/** Bounds for exponential backoff, in milliseconds. */
export type BackoffOptions = { baseMs: number; maxMs: number };

/**
 * Delay before retry number `attempt` (0 for the first retry): the step doubles from `baseMs`
 * up to `maxMs`, and "equal jitter" keeps half of it fixed so retries spread out without
 * ever collapsing to an immediate hammer. `random` returns [0, 1) like Math.random.
 */
export function computeBackoff(
  attempt: number,
  options: BackoffOptions,
  random: () => number,
): number {
  const { baseMs, maxMs } = options;
  if (!(baseMs >= 0) || !(maxMs >= 0) || !Number.isFinite(baseMs) || !Number.isFinite(maxMs)) {
    throw new RangeError('Backoff needs finite, non-negative baseMs and maxMs');
  }
  const step = Number.isFinite(attempt) && attempt > 0 ? Math.floor(attempt) : 0;
  // 2 ** step overflows to Infinity for huge attempts, which Math.min caps; a zero base
  // must short-circuit because 0 * Infinity is NaN.
  const ceiling = baseMs === 0 ? 0 : Math.min(maxMs, baseMs * 2 ** step);
  const jitter = Math.min(Math.max(random(), 0), 1);
  const half = ceiling / 2;
  return Math.min(ceiling, Math.floor(half + jitter * half));
}
