import { describe, expect, it } from 'vitest';
import { chooseCompression, DEFAULTS } from './compression.ts';
import {
  formatTable,
  findPercentile,
  summariseLatencies,
  findWeightedPercentiles,
} from './stats.ts';

describe('findPercentile', () => {
  it('takes the nearest rank: p99 of 100 values is the 99th, not the maximum', () => {
    const values = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(findPercentile(values, 50)).toBe(50);
    expect(findPercentile(values, 99)).toBe(99);
    expect(findPercentile(values, 100)).toBe(100);
  });
});

describe('findWeightedPercentiles', () => {
  it('counts a value once per unit of weight', () => {
    const samples = [
      { value: 10, weight: 9 },
      { value: 1000, weight: 1 },
    ];
    expect(findWeightedPercentiles(samples, [50, 90, 95, 100])).toEqual([10, 10, 1000, 1000]);
  });
});

describe('summariseLatencies', () => {
  it('leaves p99 out below 100 samples', () => {
    expect(summariseLatencies([1, 2, 3]).p99).toBeUndefined();
    expect(summariseLatencies(Array.from({ length: 100 }, (_, index) => index)).p99).toBe(98);
  });
});

describe('formatTable', () => {
  it('pads every column to its widest cell', () => {
    expect(formatTable(['a', 'bb'], [['long', 'x']])).toBe(
      ['| a    | bb |', '|------|----|', '| long | x  |'].join('\n'),
    );
  });
});

describe('chooseCompression', () => {
  const base = {
    maxFactor: 10,
    maxBudgetPerSecond: 25,
    minWindowMs: 60_000,
    maxWindowMs: 120_000,
    flipSpreadMs: 45_000,
  };

  it('keeps the requests of an interval and the budget-to-interval ratio of the defaults', () => {
    const compression = chooseCompression({
      ...base,
      workers: 1,
      allFreshWithinMs: 72 * 60_000,
      alertingFreshWithinMs: 20 * 60_000,
    });
    expect(compression.factor).toBe(10);
    expect(compression.intervalSeconds * compression.ratePerMinute).toBe(
      DEFAULTS.pollIntervalSeconds * DEFAULTS.upstreamRatePerMinute,
    );
    expect(compression.windowMs).toBe(120_000);
  });

  it('stays under the machine cap with ten workers and fits a short promise', () => {
    const compression = chooseCompression({
      ...base,
      workers: 10,
      allFreshWithinMs: 9 * 60_000,
      alertingFreshWithinMs: 3 * 60_000,
    });
    expect((10 * compression.ratePerMinute) / 60).toBeLessThanOrEqual(25);
    expect(compression.factor).toBe(5);
    expect(compression.promiseCoverage).toBeGreaterThanOrEqual(1);
    expect(compression.doFlipsFit).toBe(true);
  });

  it('says flips do not fit when the alerting promise outlasts window and tail', () => {
    const compression = chooseCompression({
      ...base,
      workers: 1,
      allFreshWithinMs: 344 * 60_000,
      alertingFreshWithinMs: 344 * 60_000,
    });
    expect(compression.doFlipsFit).toBe(false);
    expect(compression.flipTailMs).toBe(20_000);
  });
});
