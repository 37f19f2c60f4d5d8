import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBackoff } from '#shared/upstream/backoff.ts';

const OPTIONS = { baseMs: 1000, maxMs: 30_000 };

describe('computeBackoff', () => {
  it('doubles from baseMs and caps at maxMs', () => {
    const top = () => 0.999_999;
    expect([0, 1, 2, 3, 4, 5, 6].map((attempt) => computeBackoff(attempt, OPTIONS, top))).toEqual([
      999, 1999, 3999, 7999, 15_999, 29_999, 29_999,
    ]);
  });

  it('never drops below half the step, so retries are never immediate', () => {
    expect(computeBackoff(0, OPTIONS, () => 0)).toBe(500);
    expect(computeBackoff(10, OPTIONS, () => 0)).toBe(15_000);
  });

  it('treats negative, fractional and absurd attempts sanely', () => {
    expect(computeBackoff(-3, OPTIONS, () => 0)).toBe(500);
    expect(computeBackoff(1.7, OPTIONS, () => 0)).toBe(1000);
    expect(computeBackoff(Number.MAX_SAFE_INTEGER, OPTIONS, () => 0.5)).toBe(22_500);
    expect(computeBackoff(Number.NaN, OPTIONS, () => 0)).toBe(500);
  });

  it('stays within [half the capped step, the capped step] for any attempt and jitter', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 0, max: 600_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, baseMs, maxMs, jitter) => {
          const delay = computeBackoff(attempt, { baseMs, maxMs }, () => jitter);
          const ceiling = baseMs === 0 ? 0 : Math.min(maxMs, baseMs * 2 ** attempt);
          expect(Number.isInteger(delay)).toBe(true);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
          expect(delay).toBeLessThanOrEqual(ceiling);
          expect(delay).toBeLessThanOrEqual(maxMs);
        },
      ),
    );
  });

  it('never shrinks the lower bound as attempts grow', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 }), (attempt) => {
        const floor = (n: number) => computeBackoff(n, OPTIONS, () => 0);
        expect(floor(attempt + 1)).toBeGreaterThanOrEqual(floor(attempt));
      }),
    );
  });

  it('rejects options that are not finite non-negative numbers', () => {
    expect(() => computeBackoff(0, { baseMs: -1, maxMs: 10 }, Math.random)).toThrow(RangeError);
    expect(() => computeBackoff(0, { baseMs: 1, maxMs: Infinity }, Math.random)).toThrow(
      RangeError,
    );
  });
});
