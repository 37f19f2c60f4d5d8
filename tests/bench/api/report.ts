// Pure: the benchmark's table and its targets (issue 10) from measured figures.
import type { LoadResult } from './load.ts';

/** Which targets a route is judged by. */
export type RouteKind = 'catalog' | 'my-searches' | 'signed-in';

/** One round: a bare Fastify run, then the route's run right after it. */
export type Round = { load: LoadResult; bare: LoadResult };

/**
 * One measured /v2 route: `load` and `bare` are its median round (by ratio), `rounds` all of
 * them in the order they ran.
 */
export type RouteFigures = {
  name: string;
  kind: RouteKind;
  load: LoadResult;
  bare: LoadResult;
  rounds: readonly Round[];
  /** SQL statements per request (BEGIN/COMMIT included), from sequential requests. */
  queriesPerRequest: number;
  /** Mean time of one request alone (sequential requests, fetch on the same machine). */
  aloneMs: number;
};

/** A target and whether this run met it. */
export type TargetCheck = { description: string; isMet: boolean };

/** my_searches (Premium maximum) against bare Fastify, and its p99, at 100 connections. */
export const MY_SEARCHES_MIN_RATIO = 0.3;
/** p99 of my_searches must stay under this many milliseconds. */
export const MY_SEARCHES_MAX_P99_MS = 50;
/** Public catalog routes against bare Fastify. */
export const CATALOG_MIN_RATIO = 0.6;

/** The route's throughput as a share of the bare Fastify run beside it. */
export function computeRatio(route: Round): number {
  return route.load.requestsPerSecond / route.bare.requestsPerSecond;
}

/**
 * The round whose ratio is the median (the lower middle one for an even count): other
 * processes on a shared machine slow single runs at random, and the median of rounds each
 * paired with its own baseline is robust to one disturbed round either way.
 */
export function pickMedianRound(rounds: readonly Round[]): Round {
  const sorted = [...rounds].sort((a, b) => computeRatio(a) - computeRatio(b));
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (median === undefined) {
    throw new Error('no rounds measured');
  }
  return median;
}

/** Answers that were not 2xx, connection errors and timeouts of a load. */
export function countFailures(load: LoadResult): number {
  return load.non2xx + load.errors + load.timeouts;
}

/** Checks every target of the issue against this run's figures. */
export function checkTargets(routes: readonly RouteFigures[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const route of routes) {
    const ratio = computeRatio(route);
    if (route.kind === 'my-searches') {
      checks.push({
        description: `${route.name}: ratio ${ratio.toFixed(3)} >= ${MY_SEARCHES_MIN_RATIO}`,
        isMet: ratio >= MY_SEARCHES_MIN_RATIO,
      });
      checks.push({
        description: `${route.name}: p99 ${route.load.p99Ms} ms < ${MY_SEARCHES_MAX_P99_MS} ms`,
        isMet: route.load.p99Ms < MY_SEARCHES_MAX_P99_MS,
      });
    } else if (route.kind === 'catalog') {
      checks.push({
        description: `${route.name}: ratio ${ratio.toFixed(3)} >= ${CATALOG_MIN_RATIO}`,
        isMet: ratio >= CATALOG_MIN_RATIO,
      });
    }
  }
  return checks;
}

/** Fixed-width text table, one row per route. */
export function formatTable(routes: readonly RouteFigures[]): string {
  const header = [
    'route',
    'req/s',
    'p50 ms',
    'p99 ms',
    'max ms',
    'samples',
    'bare req/s',
    'bare p99',
    'ratio',
    'ratio per round',
    'alone ms',
    'queries/req',
    'failed',
  ];
  const rows = routes.map((route) => [
    route.name,
    formatCount(route.load.requestsPerSecond),
    // autocannon's histogram holds whole milliseconds.
    String(Math.round(route.load.p50Ms)),
    String(Math.round(route.load.p99Ms)),
    String(Math.round(route.load.maxMs)),
    formatCount(route.load.latencySamples),
    formatCount(route.bare.requestsPerSecond),
    String(Math.round(route.bare.p99Ms)),
    computeRatio(route).toFixed(3),
    route.rounds.map((round) => computeRatio(round).toFixed(2)).join(' '),
    route.aloneMs.toFixed(1),
    Number.isInteger(route.queriesPerRequest)
      ? String(route.queriesPerRequest)
      : route.queriesPerRequest.toFixed(2),
    String(
      route.rounds.reduce(
        (sum, round) => sum + countFailures(round.load) + countFailures(round.bare),
        0,
      ),
    ),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column].length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[0]) : cell.padStart(widths[column]),
      )
      .join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join(
    '\n',
  );
}

function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}
