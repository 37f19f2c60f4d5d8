import type { RateLimiter } from './client.ts';

/** Settings for a per-host token bucket; the clock and sleep are injected to keep it pure. */
export type TokenBucketOptions = {
  /** Most requests allowed back to back after a quiet spell. */
  capacity: number;
  /** Sustained requests per second per host. */
  refillPerSecond: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
};

/** A token bucket per upstream host, with a way to stand down after a block. */
export type TokenBucketLimiter = RateLimiter & {
  /** Takes a token only if one is free now; never waits. */
  tryAcquire(host: string): boolean;
  /** Holds every later request to this host for `ms`, then restarts with a single token. */
  pauseHost(host: string, ms: number): void;
  /** Tokens free for the host right now (negative while callers are queued). */
  countTokens(host: string): number;
};

type Bucket = { tokens: number; refilledAt: number };

/**
 * Creates a limiter that reserves a token on every `acquire` and sleeps off any debt, so
 * concurrent callers are spaced evenly in arrival order instead of racing on wake-up.
 */
export function createTokenBucketLimiter(options: TokenBucketOptions): TokenBucketLimiter {
  const { capacity, refillPerSecond, now, sleep } = options;
  if (!(capacity >= 1) || !(refillPerSecond > 0) || !Number.isFinite(refillPerSecond)) {
    throw new RangeError('A token bucket needs capacity >= 1 and a positive refill rate');
  }
  const buckets = new Map<string, Bucket>();

  // `refilledAt` may lie in the future during a pause: no tokens accrue until then.
  const refill = (host: string, at: number): Bucket => {
    const bucket = buckets.get(host) ?? { tokens: capacity, refilledAt: at };
    if (at > bucket.refilledAt) {
      const earned = ((at - bucket.refilledAt) / 1000) * refillPerSecond;
      bucket.tokens = Math.min(capacity, bucket.tokens + earned);
      bucket.refilledAt = at;
    }
    buckets.set(host, bucket);
    return bucket;
  };

  return {
    async acquire(host) {
      const at = now();
      const bucket = refill(host, at);
      bucket.tokens -= 1;
      const debtMs = bucket.tokens < 0 ? (-bucket.tokens / refillPerSecond) * 1000 : 0;
      const waitMs = Math.max(0, bucket.refilledAt - at) + debtMs;
      if (waitMs > 0) await sleep(Math.ceil(waitMs));
    },
    tryAcquire(host) {
      const at = now();
      const bucket = refill(host, at);
      if (bucket.refilledAt > at || bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
    pauseHost(host, ms) {
      const at = now();
      const bucket = refill(host, at);
      bucket.refilledAt = Math.max(bucket.refilledAt, at + Math.max(0, ms));
      // Resume gently: one request when the pause ends, then the sustained rate.
      bucket.tokens = Math.min(bucket.tokens, 1);
    },
    countTokens(host) {
      return refill(host, now()).tokens;
    },
  };
}
