import { describe, expect, it } from 'vitest';
import { createTokenBucketLimiter } from '#shared/upstream/rate-limiter.ts';

// A fake clock whose sleep advances time, as if the caller really waited.
function createFakeClock() {
  const clock = {
    time: 0,
    sleeps: [] as number[],
    now: () => clock.time,
    sleep: (ms: number) => {
      clock.sleeps.push(ms);
      clock.time += ms;
      return Promise.resolve();
    },
  };
  return clock;
}

describe('createTokenBucketLimiter', () => {
  it('lets a burst of `capacity` requests through, then spaces the rest at the refill rate', async () => {
    const clock = createFakeClock();
    const limiter = createTokenBucketLimiter({ capacity: 2, refillPerSecond: 0.5, ...clock });
    for (let i = 0; i < 4; i += 1) await limiter.acquire('www.apple.com');
    expect(clock.sleeps).toEqual([2000, 2000]);
    expect(clock.time).toBe(4000);
  });

  it('keeps a separate bucket per host', async () => {
    const clock = createFakeClock();
    const limiter = createTokenBucketLimiter({ capacity: 1, refillPerSecond: 1, ...clock });
    await limiter.acquire('www.apple.com');
    await limiter.acquire('www.apple.com.cn');
    expect(clock.sleeps).toEqual([]);
    await limiter.acquire('www.apple.com');
    expect(clock.sleeps).toEqual([1000]);
  });

  it('refills while idle but never beyond capacity', async () => {
    const clock = createFakeClock();
    const limiter = createTokenBucketLimiter({ capacity: 3, refillPerSecond: 1, ...clock });
    for (let i = 0; i < 3; i += 1) await limiter.acquire('h');
    expect(limiter.countTokens('h')).toBe(0);
    clock.time += 1500;
    expect(limiter.countTokens('h')).toBe(1.5);
    clock.time += 60_000;
    expect(limiter.countTokens('h')).toBe(3);
  });

  it('spaces concurrent callers evenly in arrival order', async () => {
    const clock = createFakeClock();
    const frozen = { ...clock, sleep: (ms: number) => (clock.sleeps.push(ms), Promise.resolve()) };
    const limiter = createTokenBucketLimiter({ capacity: 1, refillPerSecond: 2, ...frozen });
    await Promise.all([1, 2, 3, 4].map(() => limiter.acquire('h')));
    expect(clock.sleeps).toEqual([500, 1000, 1500]);
  });

  it('tryAcquire takes a free token without waiting and refuses when empty', () => {
    const clock = createFakeClock();
    const limiter = createTokenBucketLimiter({ capacity: 1, refillPerSecond: 1, ...clock });
    expect(limiter.tryAcquire('h')).toBe(true);
    expect(limiter.tryAcquire('h')).toBe(false);
    clock.time += 1000;
    expect(limiter.tryAcquire('h')).toBe(true);
  });

  it('pauseHost holds the host for the cool-down, then resumes with one request at a time', async () => {
    const clock = createFakeClock();
    const limiter = createTokenBucketLimiter({ capacity: 5, refillPerSecond: 1, ...clock });
    limiter.pauseHost('www.apple.com', 300_000);
    expect(limiter.tryAcquire('www.apple.com')).toBe(false);
    await limiter.acquire('www.apple.com');
    expect(clock.time).toBe(300_000);
    await limiter.acquire('www.apple.com');
    expect(clock.sleeps).toEqual([300_000, 1000]);
    await limiter.acquire('other.example');
    expect(clock.sleeps).toHaveLength(2);
  });

  it('rejects settings that would never release a request', () => {
    const clock = createFakeClock();
    expect(() => createTokenBucketLimiter({ capacity: 0, refillPerSecond: 1, ...clock })).toThrow(
      RangeError,
    );
    expect(() => createTokenBucketLimiter({ capacity: 1, refillPerSecond: 0, ...clock })).toThrow(
      RangeError,
    );
  });
});
