// The benchmark's tables: requests and 541 answers per address, staleness against the
// schedule's promise, and flip-to-email. Polling-side figures are scaled back to real time (times K); delivery is not.
import { DEFAULTS } from './compression.ts';
import { computeWindowBudget, type ConfigurationResult } from './run-configuration.ts';
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

/** Requests and refusals per configuration, counted at the simulator, against the budget. */
export function formatRequestsTable(results: readonly ConfigurationResult[]): string {
  return formatTable(
    [
      'Searches',
      'Addresses (workers)',
      'Window (real)',
      'Cycles (every, real)',
      'Requests (busiest address)',
      'Sustained budget over the window',
      'HTTP 541 answers',
      'Sweep sizes: full (alerting)',
    ],
    results.map((result) => {
      const requests = result.tallies.reduce((sum, tally) => sum + tally.requests, 0);
      const busiest = Math.max(0, ...result.tallies.map((tally) => tally.requests));
      return [
        count(result.searches),
        `${result.addresses} (${result.workers})`,
        formatDuration(real(result, result.windowMs)),
        `${result.cycles} (${formatDuration(real(result, result.medianCycleGapMs))})`,
        `${count(requests)} (${count(busiest)})`,
        `${count(Math.floor(computeWindowBudget(result)))} (+${count(result.addresses * DEFAULTS.upstreamBurst)} burst)`,
        count(result.tallies.reduce((sum, tally) => sum + tally.answered541, 0)),
        `${count(result.sweeps.fullRequests)} (${count(result.sweeps.alertingRequests)})`,
      ];
    }),
  );
}

/** Measured staleness per search next to what the schedule promises at these addresses. */
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
      'Addresses',
      'Promise: alerting (all)',
      'Planner saw',
      'Window / alerting promise',
      'Alerting searches p50 / p95 / max',
      'All searches p50 / p95 / max',
      'Samples',
    ],
    results.map((result) => {
      const promise = result.promise;
      return [
        count(result.searches),
        String(result.addresses),
        `${formatDuration(real(result, result.schedule.alertingFreshWithinMs))} (${formatDuration(real(result, result.schedule.allFreshWithinMs))})`,
        promise === undefined
          ? 'no cycle stored'
          : `${promise.budget_per_minute / result.compression.factor}/min real`,
        `${Math.round((result.windowMs / result.schedule.alertingFreshWithinMs) * 100)} %`,
        triple(result, result.staleness.alerting),
        triple(result, result.staleness.all),
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
      'Addresses',
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
        String(result.addresses),
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
    `${count(result.searches)} searches / ${result.addresses} address${result.addresses === 1 ? '' : 'es'}`;
  const met = measured.filter(({ summary }) => (summary.p99 ?? Number.POSITIVE_INFINITY) < 1000);
  const missed = measured.filter((entry) => !met.includes(entry));
  return (
    `Answer to SMTP, target p99 under 1 s: ${measured.length} of ${results.length} configurations had the 100 emails a p99 needs; ` +
    `met by ${met.length === 0 ? 'none' : met.map(label).join(', ')}` +
    `${missed.length === 0 ? '' : `; missed by ${missed.map((entry) => `${label(entry)} (${formatDuration(entry.summary.p99)})`).join(', ')}`}.`
  );
}
