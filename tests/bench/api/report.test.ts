import { describe, expect, it } from 'vitest';
import type { LoadResult } from './load.ts';
import { checkTargets, formatTable, pickMedianRound, type RouteFigures } from './report.ts';

function load(requestsPerSecond: number, p99Ms: number, failures = 0): LoadResult {
  return {
    durationSeconds: 10,
    responses: requestsPerSecond * 10,
    requestsPerSecond,
    p50Ms: p99Ms / 2,
    p99Ms,
    maxMs: p99Ms * 2,
    latencySamples: requestsPerSecond * 10,
    non2xx: failures,
    errors: 0,
    timeouts: 0,
    statusCounts: { '200': requestsPerSecond * 10 },
  };
}

/** A route measured at `rps` beside a bare Fastify run of 10,000 req/s. */
function route(kind: RouteFigures['kind'], rps: number, p99: number): RouteFigures {
  const round = { load: load(rps, p99), bare: load(10_000, 20) };
  return {
    name: `GET ${kind}`,
    kind,
    ...round,
    rounds: [round],
    queriesPerRequest: 2,
    aloneMs: 1.25,
  };
}

describe('checkTargets', () => {
  it('meets the targets at 0.3 of bare Fastify with p99 under 50 ms and catalog at 0.6', () => {
    const checks = checkTargets([
      route('my-searches', 3000, 49),
      route('catalog', 6000, 200),
      route('signed-in', 10, 900),
    ]);
    expect(checks).toHaveLength(3);
    expect(checks.every((check) => check.isMet)).toBe(true);
  });

  it('misses my_searches below 0.3 of bare Fastify or at a p99 of 50 ms', () => {
    expect(checkTargets([route('my-searches', 2999, 10)]).map((c) => c.isMet)).toEqual([
      false,
      true,
    ]);
    expect(checkTargets([route('my-searches', 5000, 50)]).map((c) => c.isMet)).toEqual([
      true,
      false,
    ]);
  });

  it('misses a catalog route below 0.6 of bare Fastify', () => {
    expect(checkTargets([route('catalog', 5999, 1)]).map((c) => c.isMet)).toEqual([false]);
  });

  it('compares each route with the bare Fastify run beside it', () => {
    const slowMachine = { ...route('catalog', 3000, 30), bare: load(4000, 40) };
    slowMachine.rounds = [{ load: slowMachine.load, bare: slowMachine.bare }];
    expect(checkTargets([slowMachine]).map((c) => c.isMet)).toEqual([true]);
  });
});

describe('pickMedianRound', () => {
  it('takes the round of the median ratio, each round against its own baseline', () => {
    const rounds = [
      { load: load(5000, 30), bare: load(10_000, 10) },
      { load: load(3000, 90), bare: load(4000, 10) },
      { load: load(6000, 20), bare: load(10_000, 10) },
    ];
    expect(pickMedianRound(rounds)).toBe(rounds[2]);
    expect(pickMedianRound(rounds.slice(0, 2))).toBe(rounds[0]);
    expect(() => pickMedianRound([])).toThrow();
  });
});

describe('formatTable', () => {
  it('prints the median round, the ratio of every round, queries and failures of all runs', () => {
    const median = { load: load(5000, 30, 3), bare: load(8000, 12, 1) };
    const figures = {
      ...route('catalog', 5000, 30),
      ...median,
      rounds: [{ load: load(4000, 30), bare: load(8000, 12, 2) }, median],
    };
    const lines = formatTable([figures]).split('\n');
    expect(lines[0]).toMatch(
      /^route +req\/s +p50 ms +p99 ms +max ms +samples +bare req\/s +bare p99 +ratio +ratio per round +alone ms +queries\/req +failed$/,
    );
    expect(lines[2]).toMatch(
      /^GET catalog +5,000 +15 +30 +60 +50,000 +8,000 +12 +0\.625 +0\.50 0\.63 +1\.3 +2 +6$/,
    );
  });
});
