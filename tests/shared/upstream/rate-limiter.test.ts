import { describe, expect, it } from 'vitest';
import {
  checkPacing,
  countTokensAt,
  createFullBucket,
  holdBucket,
  isBucketAtRest,
  reserveRequest,
  type PacedBucket,
  type RequestPacing,
} from '#shared/upstream/rate-limiter.ts';

const PACING: RequestPacing = { burst: 3, ratePerMinute: 1, minGapMs: 3000 };

/** Reserves requests asked for at `askedAt` each, answering when each may go (null: refused). */
function reserveAll(bucket: PacedBucket, askedAt: readonly number[], pacing = PACING) {
  let current = bucket;
  const slots: (number | null)[] = [];
  for (const now of askedAt) {
    const reserved = reserveRequest(current, pacing, now);
    slots.push(reserved?.at ?? null);
    if (reserved !== null) current = reserved.bucket;
  }
  return { slots, bucket: current };
}

describe('pacing an address from its stored bucket', () => {
  it('lets the burst through a gap apart, then refuses until the rate brings a token', () => {
    const { slots, bucket } = reserveAll(createFullBucket(PACING, 0), [0, 0, 0, 0]);
    // Asked together, they go 3 s apart; the fourth finds no token by then.
    expect(slots).toEqual([0, 3000, 6000, null]);
    // The 6 s of the burst earned a tenth of a token back.
    expect(countTokensAt(bucket, PACING, 6000)).toBeCloseTo(0.1);
    // About a minute after the last one, one token is back.
    expect(reserveRequest(bucket, PACING, 50_000)).toBeNull();
    expect(reserveRequest(bucket, PACING, 61_000)?.at).toBe(61_000);
  });

  it('waits out the gap after a request another watcher reserved for later', () => {
    const first = reserveRequest(createFullBucket(PACING, 0), PACING, 0)!;
    const second = reserveRequest(first.bucket, PACING, 1000)!;
    expect(second.at).toBe(3000);
    const third = reserveRequest(second.bucket, PACING, 1500)!;
    expect(third.at).toBe(6000);
  });

  it('holds no more than its own burst when another watcher wrote a larger one', () => {
    const roomy: PacedBucket = { tokens: 20, refilledAt: 0, lastRequestAt: null };
    expect(countTokensAt(roomy, PACING, 0)).toBe(3);
    const { slots } = reserveAll(roomy, [0, 0, 0, 0], { ...PACING, minGapMs: 0 });
    expect(slots).toEqual([0, 0, 0, null]);
  });

  it('puts every request off to the end of a cool-down, then resumes with one', () => {
    const full = createFullBucket(PACING, 0);
    const held = holdBucket(full, PACING, 300_000);
    const after = reserveAll(held, [100_000, 100_000]);
    expect(after.slots).toEqual([300_000, null]);
    // A shorter hold than one already there changes nothing.
    expect(holdBucket(held, PACING, 200_000)).toBe(held);
  });

  it('is at rest once full again and past the gap', () => {
    const used = reserveRequest(createFullBucket(PACING, 0), PACING, 0)!.bucket;
    expect(isBucketAtRest(used, PACING, 30_000)).toBe(false);
    expect(isBucketAtRest(used, PACING, 60_000)).toBe(true);
    expect(isBucketAtRest(createFullBucket(PACING, 0), PACING, 0)).toBe(true);
  });

  it('refuses pacing a bucket cannot follow, saying what is wrong', () => {
    expect(() => checkPacing({ ...PACING, burst: 0 })).toThrow(/burst of 1 or more/);
    expect(() => checkPacing({ ...PACING, ratePerMinute: 0 })).toThrow(/positive rate/);
    expect(() => checkPacing({ ...PACING, minGapMs: -1 })).toThrow(/cannot be negative/);
    expect(() => checkPacing({ ...PACING, ratePerMinute: Number.NaN })).toThrow(RangeError);
  });
});
