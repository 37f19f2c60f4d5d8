// One configuration: N worker processes against one database of S searches, measured for a
// window of wall time at compression K, with flips timed to a real SMTP server.
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '#server/db/database.ts';
import { QUEUE_SCHEMA } from '#server/watch/queue-schema.ts';
import type { RunningUpstreamSimulator } from '#server/watch/simulator/index.ts';
import { computeFreshnessSchedule } from '#shared/watch/index.ts';
import { startSmtpSink } from '#tests/helpers/smtp-sink.ts';
import type { Compression } from './compression.ts';
import { spreadLastAnswers, type SweptGroup } from './first-sweep.ts';
import {
  collectFlipResults,
  runFlips,
  startArrivalClock,
  type FlipResult,
  type Probe,
} from './flips.ts';
import {
  startCycleWatcher,
  startStalenessSampler,
  summariseStaleness,
  type CycleRecord,
  type GroupWeights,
  type StalenessFigures,
} from './measure.ts';
import { createSeededRandom } from './skew.ts';
import { findPercentile } from './stats.ts';
import { startWorkerFleet } from './workers.ts';

/** Everything a configuration needs from its size's setup. */
export type ConfigurationInputs = {
  db: Db;
  databaseUrl: string;
  repoRoot: string;
  workDir: string;
  simulator: RunningUpstreamSimulator;
  searches: number;
  alertingSearches: number;
  groups: readonly SweptGroup[];
  weights: GroupWeights;
  workers: number;
  compression: Compression;
  probes: readonly Probe[];
  log: (line: string) => void;
};

/** What one configuration measured; times are wall ms unless named real. */
export type ConfigurationResult = {
  searches: number;
  alertingSearches: number;
  groups: number;
  alertingGroups: number;
  workers: number;
  compression: Compression;
  windowMs: number;
  requests: number;
  cycles: number;
  /** Median gap between planned cycles (workers starting together plan a few back to back). */
  medianCycleGapMs: number;
  staleness: { all: StalenessFigures; alerting: StalenessFigures; samples: number };
  promise: CycleRecord['last'];
  flips: FlipResult[];
  emails: number;
  outboxLeft: number;
  workerLogLines: string[];
  startupMs: number;
};

const SAMPLE_EVERY_MS = 2000;
const STARTUP_LIMIT_MS = 180_000;

/** Runs one configuration from a clean queue to stopped workers. */
export async function runConfiguration(inputs: ConfigurationInputs): Promise<ConfigurationResult> {
  const { db, compression, workers } = inputs;
  await resetBetweenConfigurations(db);
  const smtp = await startSmtpSink();
  const arrivals = startArrivalClock(smtp);
  const startedAt = Date.now();
  const fleet = startWorkerFleet({
    count: workers,
    repoRoot: inputs.repoRoot,
    databaseUrl: inputs.databaseUrl,
    upstreamUrl: inputs.simulator.url,
    smtpUrl: smtp.url,
    dataDir: inputs.workDir,
    compression,
    logFile: path.join(inputs.workDir, `workers-${inputs.searches}-${workers}.log`),
  });
  try {
    await waitForWorkers(db, workers, fleet.readLogLines);
    const startupMs = Date.now() - startedAt;
    const alertingGroups = inputs.groups.filter((group) => group.isAlerting).length;
    const intervalMs = compression.intervalSeconds * 1000;
    const schedule = computeFreshnessSchedule({
      budgetPerMinute: workers * compression.ratePerMinute,
      intervalMs,
      alertingGroups,
      pageOnlyGroups: inputs.groups.length - alertingGroups,
    });
    await spreadLastAnswers(db, inputs.groups, {
      alertingMs: schedule.alertingEveryIntervals * intervalMs,
      pageOnlyMs: schedule.pageOnlyEveryIntervals * intervalMs,
    });
    const onError = (error: unknown): void =>
      inputs.log(`  sampling failed: ${error instanceof Error ? error.message : String(error)}`);
    const requestsBefore = inputs.simulator.getRequestCount();
    const sampler = startStalenessSampler(db, inputs.weights, SAMPLE_EVERY_MS, onError);
    const cycles = startCycleWatcher(db, onError);
    const windowStart = Date.now();
    const flipping = runFlips(
      inputs.simulator,
      inputs.probes,
      compression.flipSpreadMs,
      createSeededRandom(workers * 7919 + inputs.searches),
    );
    await new Promise((resolve) => setTimeout(resolve, compression.windowMs));
    const requests = inputs.simulator.getRequestCount() - requestsBefore;
    const windowMs = Date.now() - windowStart;
    const [samples, cycleRecord, flipped] = await Promise.all([
      sampler.stop(),
      cycles.stop(),
      flipping,
    ]);
    // Flips still on their way get a tail; the report says how many arrived.
    const tailEnd = Date.now() + compression.flipTailMs;
    const keyOf = (probe: Probe): string => `${probe.searchId}|${probe.storeId}|${probe.part}`;
    while (Date.now() < tailEnd) {
      const seen = arrivals.read();
      if (flipped.every(({ probe }) => seen.has(keyOf(probe)))) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await fleet.stop();
    const arrived = arrivals.stop();
    const flips = await collectFlipResults(db, flipped, arrived);
    const left = await db
      .selectFrom('alert_outbox')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', 'in', ['pending', 'sending'])
      .executeTakeFirstOrThrow();
    const gaps = cycleRecord.plannedAt
      .slice(1)
      .map((at, index) => at - cycleRecord.plannedAt[index]);
    return {
      searches: inputs.searches,
      alertingSearches: inputs.alertingSearches,
      groups: inputs.groups.length,
      alertingGroups,
      workers,
      compression,
      windowMs,
      requests,
      cycles: cycleRecord.plannedAt.length,
      medianCycleGapMs: findPercentile(
        gaps.sort((a, b) => a - b),
        50,
      ),
      staleness: {
        all: summariseStaleness(samples.all),
        alerting: summariseStaleness(samples.alerting),
        samples: samples.samples,
      },
      promise: cycleRecord.last,
      flips,
      emails: arrivals.count(),
      outboxLeft: Number(left.count),
      workerLogLines: await fleet.readLogLines(),
      startupMs,
    };
  } finally {
    await fleet.stop();
    arrivals.stop();
    await smtp.close();
  }
}

/**
 * A clean start for the next configuration: no queue left by the last one's workers, no
 * workers or promise on record, and no alerts still queued from it (they would be delivered
 * to this configuration's SMTP server and crowd its figures).
 */
export async function resetBetweenConfigurations(db: Db): Promise<void> {
  await sql`drop schema if exists ${sql.id(QUEUE_SCHEMA)} cascade`.execute(db);
  await db.deleteFrom('watch_workers').execute();
  await db.deleteFrom('watch_freshness').execute();
  await db
    .updateTable('alert_outbox')
    .set({ status: 'suppressed', last_error: 'benchmark: queued before this configuration' })
    .where('status', 'in', ['pending', 'sending'])
    .execute();
  await db
    .updateTable('upstream_hosts')
    .set({ cool_down_until: null, consecutive_failures: 0 })
    .execute();
}

async function waitForWorkers(
  db: Db,
  count: number,
  readLogLines: () => Promise<string[]>,
): Promise<void> {
  const deadline = Date.now() + STARTUP_LIMIT_MS;
  for (;;) {
    const row = await db
      .selectFrom('watch_workers')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    if (Number(row.count) >= count) return;
    if (Date.now() > deadline) {
      const lines = await readLogLines();
      throw new Error(
        `only ${Number(row.count)} of ${count} workers registered within ${STARTUP_LIMIT_MS / 1000} s; their log ends:\n${lines.slice(-20).join('\n')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
