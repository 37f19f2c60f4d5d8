// Pacing one address as a token bucket with a least gap between two requests, as plain data:
// the local watchers of one machine keep the bucket in a file they share (the macOS app and
// `shelfwatch watch`), so it is a value read, changed and written, never an object in memory.

/** How one address paces its requests. */
export type RequestPacing = {
  /** Most requests back to back after a quiet spell. */
  burst: number;
  /** Sustained requests a minute. */
  ratePerMinute: number;
  /** Least time between two requests, whatever the bucket holds. */
  minGapMs: number;
};

/** An address's bucket: tokens as of `refilledAt`, and when its latest request goes. */
export type PacedBucket = {
  tokens: number;
  /** May lie in the future: a request reserved for later, or the end of a cool-down. */
  refilledAt: number;
  lastRequestAt: number | null;
};

/** Throws a clear RangeError for pacing a bucket cannot follow. */
export function checkPacing(pacing: RequestPacing): void {
  const { burst, ratePerMinute, minGapMs } = pacing;
  if (!(burst >= 1) || !Number.isFinite(burst)) {
    throw new RangeError(`A request bucket needs a burst of 1 or more (got ${burst})`);
  }
  if (!(ratePerMinute > 0) || !Number.isFinite(ratePerMinute)) {
    throw new RangeError(`A request bucket needs a positive rate (got ${ratePerMinute})`);
  }
  if (!(minGapMs >= 0) || !Number.isFinite(minGapMs)) {
    throw new RangeError(`A request gap cannot be negative (got ${minGapMs} ms)`);
  }
}

/** A bucket that has not been drawn from: the whole burst free now. */
export function createFullBucket(pacing: RequestPacing, now: number): PacedBucket {
  return { tokens: pacing.burst, refilledAt: now, lastRequestAt: null };
}

/** The bucket's tokens at `at` (never more than the burst; none accrue before `refilledAt`). */
export function countTokensAt(bucket: PacedBucket, pacing: RequestPacing, at: number): number {
  // A bucket written under a larger burst (another watcher's setting) holds no more than ours.
  const held = Math.min(pacing.burst, bucket.tokens);
  if (at <= bucket.refilledAt) return held;
  const earned = ((at - bucket.refilledAt) / 60_000) * pacing.ratePerMinute;
  return Math.min(pacing.burst, held + earned);
}

/**
 * Reserves the next request: at `now`, or once the gap after the latest one has passed. Null
 * when the bucket holds no token by then; what it cannot pay for waits for a later check
 * rather than for a token, so a check never stalls for a minute.
 */
export function reserveRequest(
  bucket: PacedBucket,
  pacing: RequestPacing,
  now: number,
): { bucket: PacedBucket; at: number } | null {
  const afterGap = bucket.lastRequestAt === null ? now : bucket.lastRequestAt + pacing.minGapMs;
  const at = Math.max(now, afterGap, bucket.refilledAt);
  const tokens = countTokensAt(bucket, pacing, at);
  if (tokens < 1) return null;
  return { bucket: { tokens: tokens - 1, refilledAt: at, lastRequestAt: at }, at };
}

/** Holds every request until `until`, then resumes gently: one request, then the sustained rate. */
export function holdBucket(bucket: PacedBucket, pacing: RequestPacing, until: number): PacedBucket {
  if (until <= bucket.refilledAt) return bucket;
  return {
    tokens: Math.min(1, countTokensAt(bucket, pacing, until)),
    refilledAt: until,
    lastRequestAt: bucket.lastRequestAt,
  };
}

/** True when the bucket is full again by `at`: it no longer remembers anything worth keeping. */
export function isBucketAtRest(bucket: PacedBucket, pacing: RequestPacing, at: number): boolean {
  const isPastGap = bucket.lastRequestAt === null || bucket.lastRequestAt + pacing.minGapMs <= at;
  return isPastGap && countTokensAt(bucket, pacing, at) >= pacing.burst;
}
