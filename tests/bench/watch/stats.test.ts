import { describe, expect, it } from 'vitest';
import { APPLE_BLOCK, compressDefaults, DEFAULTS, describeWorkerSettings } from './compression.ts';
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

describe('compressDefaults', () => {
  it('keeps a real minute of requests and blocks in each compressed minute', () => {
    const compression = compressDefaults(10);
    expect(compression.intervalSeconds * compression.ratePerMinute).toBe(
      DEFAULTS.pollIntervalSeconds * DEFAULTS.upstreamRatePerMinute,
    );
    // Apple's budget over its block window is the same count at any K: 30 requests.
    expect((compression.block.windowSeconds / 60) * compression.ratePerMinute).toBe(
      (APPLE_BLOCK.windowSeconds / 60) * DEFAULTS.upstreamRatePerMinute,
    );
    expect(compression.coolDownSeconds).toBe(30);
    expect(describeWorkerSettings(compression)).toMatchObject({
      POLL_INTERVAL_SECONDS: '6',
      UPSTREAM_RATE_PER_MINUTE: '10',
      UPSTREAM_BURST: '20',
      WATCH_FULL_SWEEP_MINUTES: '6',
      ALERT_QUIET_WINDOW_MINUTES: '3',
    });
  });

  it('refuses a factor some setting cannot be divided by', () => {
    expect(() => compressDefaults(4)).toThrow(/BENCH_WATCH_FACTOR: 4/);
  });
});
