// The benchmark's tables: requests per cycle, staleness against the planner's promise, and
// flip-to-email. Polling-side figures are scaled back to real time (times K); delivery is not.
import type { ConfigurationResult } from './run-configuration.ts';
import { formatDuration, formatTable, summariseLatencies, type LatencySummary } from './stats.ts';

/** A size's crowd and first sweep, for the settings table. */
export type SizeSummary = {
  searches: number;
  users: number;
  alertingSearches: number;
  groups: number;
  alertingGroups: number;
  topShare: number;
  topProducts: string[];
  seedMs: number;
  sweepRequests: number;
  sweepMs: number;
};

/** Flip to email counts only when nearly every flip's email arrived: the rest would be the slow ones. */
const COMPLETE_SHARE = 0.95;

const count = (value: number): string => value.toLocaleString('en-US');
const real = (result: ConfigurationResult, wallMs: number): number =>
  wallMs * result.compression.factor;

/** The crowd of each size. */
export function formatCrowdTable(sizes: readonly SizeSummary[]): string {
  return formatTable(
    [
      'Searches',
      'Users',
      'Alerting searches',
      'Groups (alerting)',
      'Top 4 product types',
      'Seeded in',
      'First sweep (new groups)',
    ],
    sizes.map((size) => [
      count(size.searches),
      count(size.users),
      `${count(size.alertingSearches)} (${Math.round((size.alertingSearches / size.searches) * 100)} %)`,
      `${count(size.groups)} (${count(size.alertingGroups)})`,
      `${Math.round(size.topShare * 100)} % (${size.topProducts.join(', ')})`,
      formatDuration(size.seedMs),
      `${count(size.sweepRequests)} requests in ${formatDuration(size.sweepMs)} unpaced`,
    ]),
  );
}

/** Requests per cycle against the budget, one request per group and one per search. */
export function formatRequestsTable(results: readonly ConfigurationResult[]): string {
  return formatTable(
    [
      'Searches',
      'Workers',
      'K (interval, rate per worker)',
      'Window (real)',
      'Cycles',
      'Cycle every (real)',
      'Requests',
      'Requests per cycle',
      'Budget per cycle',
      'One per group',
      'One per search',
    ],
    results.map((result) => {
      const perCycle = result.cycles === 0 ? Number.NaN : result.requests / result.cycles;
      return [
        count(result.searches),
        String(result.workers),
        `${result.compression.factor} (${result.compression.intervalSeconds} s, ${result.compression.ratePerMinute}/min)`,
        formatDuration(real(result, result.windowMs)),
        String(result.cycles),
        formatDuration(real(result, result.medianCycleGapMs)),
        count(result.requests),
        Number.isNaN(perCycle) ? 'n/a' : perCycle.toFixed(1),
        String(result.workers * 30),
        count(result.groups),
        count(result.searches),
      ];
    }),
  );
}

/** Measured staleness per search next to what the planner promised. */
export function formatStalenessTable(results: readonly ConfigurationResult[]): string {
  const triple = (
    result: ConfigurationResult,
    figures: { p50: number; p95: number; max: number },
  ): string =>
    [figures.p50, figures.p95, figures.max]
      .map((ms) => formatDuration(real(result, ms)))
      .join(' / ');
  return formatTable(
    [
      'Searches',
      'Workers',
      'Planner promise: all (alerting)',
      'Workers seen by planner',
      'Window / promise',
      'Staleness p50 / p95 / max, all searches',
      'Alerting searches',
      'Samples',
    ],
    results.map((result) => {
      const promise = result.promise;
      return [
        count(result.searches),
        String(result.workers),
        promise === undefined
          ? 'none stored'
          : `${formatDuration(real(result, promise.all_fresh_within_ms))} (${formatDuration(real(result, promise.alerting_fresh_within_ms))})`,
        promise === undefined
          ? 'n/a'
          : `${promise.workers} (${promise.budget_per_minute / result.compression.factor}/min real)`,
        `${Math.round(result.compression.promiseCoverage * 100)} %`,
        triple(result, result.staleness.all),
        triple(result, result.staleness.alerting),
        String(result.staleness.samples),
      ];
    }),
  );
}

/** Flip figures: real-time estimate of the whole path, and the uncompressed answer-to-SMTP part. */
export type FlipFigures = {
  flipped: number;
  arrived: number;
  /** Undefined when too few flips arrived to stand for all of them. */
  flipToEmail: LatencySummary | undefined;
  answerToSmtp: LatencySummary;
};

/** Summarises a configuration's flips. */
export function summariseFlips(result: ConfigurationResult): FlipFigures {
  const arrived = result.flips.filter(
    (flip) => flip.receivedAt !== undefined && flip.queuedAt !== undefined,
  );
  const factor = result.compression.factor;
  const isComplete =
    result.flips.length > 0 && arrived.length >= result.flips.length * COMPLETE_SHARE;
  return {
    flipped: result.flips.length,
    arrived: arrived.length,
    // Flip to queued is polling (compressed: times K); queued to SMTP is delivery (as measured).
    flipToEmail: isComplete
      ? summariseLatencies(
          arrived.map(
            (flip) =>
              (flip.queuedAt! - flip.flippedAt) * factor + (flip.receivedAt! - flip.queuedAt!),
          ),
        )
      : undefined,
    answerToSmtp: summariseLatencies(arrived.map((flip) => flip.receivedAt! - flip.queuedAt!)),
  };
}

/** Flip to SMTP receipt, and answer to SMTP receipt (target p99 under 1 s). */
export function formatFlipsTable(results: readonly ConfigurationResult[]): string {
  const latencies = (summary: LatencySummary | undefined, note: string): string =>
    summary === undefined
      ? note
      : [summary.p50, summary.p95].map(formatDuration).join(' / ') +
        ` / ${summary.p99 === undefined ? `n/a (${summary.count} < 100 samples)` : formatDuration(summary.p99)}`;
  return formatTable(
    [
      'Searches',
      'Workers',
      'Flips (emails arrived)',
      'Flip to SMTP p50 / p95 / p99 (real)',
      'Answer to SMTP p50 / p95 / p99',
      'Answer to SMTP max',
      'Emails received',
    ],
    results.map((result) => {
      const figures = summariseFlips(result);
      return [
        count(result.searches),
        String(result.workers),
        `${figures.flipped} (${figures.arrived})`,
        latencies(
          figures.flipToEmail,
          figures.flipped === 0
            ? 'no flips'
            : `not reported: ${figures.arrived} of ${figures.flipped} arrived in the window`,
        ),
        figures.arrived === 0 ? 'n/a' : latencies(figures.answerToSmtp, ''),
        figures.arrived === 0 ? 'n/a' : formatDuration(figures.answerToSmtp.max),
        count(result.emails),
      ];
    }),
  );
}

/** Checks the issue's target on every configuration with enough samples. */
export function describeAnswerToSmtpTarget(results: readonly ConfigurationResult[]): string {
  const measured = results
    .map((result) => ({ result, summary: summariseFlips(result).answerToSmtp }))
    .filter(({ summary }) => summary.p99 !== undefined);
  const label = ({ result }: { result: ConfigurationResult }): string =>
    `${count(result.searches)} searches / ${result.workers} worker${result.workers === 1 ? '' : 's'}`;
  const met = measured.filter(({ summary }) => (summary.p99 ?? Number.POSITIVE_INFINITY) < 1000);
  const missed = measured.filter((entry) => !met.includes(entry));
  return (
    `Answer to SMTP, target p99 under 1 s: ${measured.length} of ${results.length} configurations had the 100 emails a p99 needs; ` +
    `met by ${met.length === 0 ? 'none' : met.map(label).join(', ')}` +
    `${missed.length === 0 ? '' : `; missed by ${missed.map((entry) => `${label(entry)} (${formatDuration(entry.summary.p99)})`).join(', ')}`}.`
  );
}
