import { describe, expect, it } from 'vitest';
import { checkColdTargets, formatColdLine, measureColdRoute, type ColdFigures } from './cold.ts';
import type { LoadOptions, LoadResult } from './load.ts';

function load(requestsPerSecond: number, p99Ms: number, durationSeconds = 5): LoadResult {
  const responses = Math.round(requestsPerSecond * durationSeconds);
  return {
    durationSeconds,
    responses,
    requestsPerSecond,
    p50Ms: p99Ms / 2,
    p99Ms,
    maxMs: p99Ms * 2,
    latencySamples: responses,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    statusCounts: { '200': responses },
  };
}

function cold(label: ColdFigures['label'], ratios: number[], p99 = 30, seconds = 5): ColdFigures {
  return {
    label,
    rounds: ratios.map((ratio) => ({
      load: load(10_000 * ratio, p99, seconds),
      bare: load(10_000, 20),
    })),
    statementsPerAnswer: ratios.map(() => 0.1),
  };
}

describe('the cold-cache figures of bench:api', () => {
  it('warms the route up before its rounds, and measures each round after a bare run', async () => {
    const runs: string[] = [];
    const route = { origin: 'http://route', connections: 100, clientAddresses: 0, variants: [] };
    const bare = { ...route, origin: 'http://bare' };
    const figures = await measureColdRoute({
      label: 'cold my_searches',
      route,
      bare,
      rounds: 2,
      durationSeconds: 5,
      bareSeconds: 3,
      warmupSeconds: 2,
      runLoad: async (options: LoadOptions) => {
        runs.push(`${options.origin} ${options.durationSeconds} s`);
        return load(options.origin === bare.origin ? 10_000 : 3_000, 20, options.durationSeconds);
      },
      waitForIdle: async () => undefined,
      readStatementCount: () => runs.length,
    });
    expect(runs).toEqual([
      'http://route 2 s',
      'http://bare 3 s',
      'http://route 5 s',
      'http://bare 3 s',
      'http://route 5 s',
    ]);
    expect(figures.rounds.map((round) => round.load.durationSeconds)).toEqual([5, 5]);
  });

  it('prints the median round as the issue asks', () => {
    expect(formatColdLine(cold('cold my_searches', [0.3, 0.25, 0.4], 42))).toBe(
      'cold my_searches: ratio 0.300, p99 42 ms',
    );
    expect(formatColdLine(cold('cold inventory', [0.18]))).toBe(
      'cold inventory: ratio 0.180, p99 30 ms',
    );
  });

  it('gives no p99 from fewer than 100 answers, and counts that as missed', () => {
    const sparse = cold('cold my_searches', [0.001], 10, 5);
    expect(formatColdLine(sparse)).toBe(
      'cold my_searches: ratio 0.001, p99 n/a (50 answers, fewer than 100)',
    );
    expect(checkColdTargets([sparse]).map((check) => check.isMet)).toEqual([false, false]);
  });

  it('checks my_searches at 0.2x with p99 under 50 ms and inventory at 0.15x', () => {
    const checks = checkColdTargets([
      cold('cold my_searches', [0.21], 49),
      cold('cold inventory', [0.14]),
    ]);
    expect(checks.map((check) => [check.description, check.isMet])).toEqual([
      ['cold my_searches: ratio 0.210 >= 0.2', true],
      ['cold my_searches: p99 49 ms < 50 ms', true],
      ['cold inventory: ratio 0.140 >= 0.15', false],
    ]);
    expect(checkColdTargets([cold('cold my_searches', [0.5], 50)])[1].isMet).toBe(false);
  });
});
