// One configuration: W worker processes asking through A egress addresses (local proxies
// whose onward connections leave from their own loopback address, so the simulated Apple
// counts and blocks each one apart), against one database of S searches, measured for a
// window of wall time at compression K, with flips timed to a real SMTP server.
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '#server/db/database.ts';
import type { WatchFreshnessRow } from '#server/db/repositories/watch-workers-repository.ts';
import { QUEUE_SCHEMA } from '#server/db/queue-schema.ts';
import type { RunningUpstreamSimulator } from '#server/simulator/index.ts';
import { computeSweepSchedule, type FreshnessSchedule } from '#shared/watch/index.ts';
import { startSmtpSink } from '#tests/helpers/smtp-sink.ts';
import { startLoopbackProxy, type LoopbackProxy } from '#tests/server/simulator/loopback-proxy.ts';
import type { Compression } from './compression.ts';
import { spreadLastAnswers, type SweptGroup } from './first-sweep.ts';
import {
  collectFlipResults,
  findArrival,
  runFlips,
  startArrivalClock,
  type FlipResult,
  type Probe,
} from './flips.ts';
import {
  startCycleWatcher,
  startStalenessSampler,
  summariseStaleness,
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
  /** HTTP requests of a full and of an alerting sweep, as the planner sizes them. */
  sweeps: { fullRequests: number; alertingRequests: number };
  addresses: number;
  /** Loopback addresses the proxies leave from: 127.0.<subnet>.1 and up, unique per configuration. */
  addressSubnet: number;
  workers: number;
  compression: Compression;
  window: { maxMs: number; minMs: number; flipSpreadMs: number };
  probes: readonly Probe[];
  log: (line: string) => void;
};

/** Requests and refusals the simulator counted for one address. */
export type AddressTally = { address: string; requests: number; answered541: number };

/** What one configuration measured; times are wall ms unless named real. */
export type ConfigurationResult = {
  searches: number;
  alertingSearches: number;
  groups: number;
  alertingGroups: number;
  addresses: number;
  workers: number;
  compression: Compression;
  sweeps: ConfigurationInputs['sweeps'];
  /** The split of the budget the planner's schedule gives at these addresses (wall ms). */
  schedule: FreshnessSchedule;
  windowMs: number;
  flipSpreadMs: number;
  tallies: AddressTally[];
  cycles: number;
  /** Median gap between planned cycles (workers starting together plan a few back to back). */
  medianCycleGapMs: number;
  staleness: { all: StalenessFigures; alerting: StalenessFigures; samples: number };
  promise: WatchFreshnessRow | undefined;
  flips: FlipResult[];
  emails: number;
  outboxLeft: number;
  workerLogLines: string[];
  startupMs: number;
};

const SAMPLE_EVERY_MS = 2000;
const STARTUP_LIMIT_MS = 180_000;
/** Time allowed for an email once its target was asked. */
const DELIVERY_ALLOWANCE_MS = 10_000;
/** Workers run on after the window at least this long for flips still on their way... */
const SHORT_FLIP_TAIL_MS = 20_000;
/** ...and at most this long. */
const LONGEST_FLIP_TAIL_MS = 120_000;

/** Runs one configuration from a clean queue to stopped workers. */
export async function runConfiguration(inputs: ConfigurationInputs): Promise<ConfigurationResult> {
  const { db, compression, workers } = inputs;
  await resetBetweenConfigurations(db, inputs.simulator);
  const intervalMs = compression.intervalSeconds * 1000;
  const schedule = computeSweepSchedule({
    budgetPerMinute: inputs.addresses * compression.ratePerMinute,
    intervalMs,
    alertingSweepRequests: inputs.sweeps.alertingRequests,
    fullSweepRequests: inputs.sweeps.fullRequests,
    allWithinMs: compression.fullSweepMinutes * 60_000,
  });
  // Long enough for a whole full sweep when the window allows, and at least two alerting periods.
  const windowMs = Math.round(
    Math.min(
      inputs.window.maxMs,
      Math.max(
        inputs.window.minMs,
        schedule.allFreshWithinMs * 1.05,
        schedule.alertingFreshWithinMs * 2,
      ),
    ),
  );
  const flipSpreadMs = Math.round(Math.min(inputs.window.flipSpreadMs, windowMs / 2));
  const flipTailMs = Math.min(
    LONGEST_FLIP_TAIL_MS,
    Math.max(
      SHORT_FLIP_TAIL_MS,
      flipSpreadMs + schedule.alertingFreshWithinMs + DELIVERY_ALLOWANCE_MS - windowMs,
    ),
  );
  const proxies: LoopbackProxy[] = [];
  const smtp = await startSmtpSink();
  const arrivals = startArrivalClock(smtp);
  let fleet: ReturnType<typeof startWorkerFleet> | undefined;
  try {
    for (let index = 0; index < inputs.addresses; index += 1)
      proxies.push(await startLoopbackProxy(`127.0.${inputs.addressSubnet}.${index + 1}`));
    const startedAt = Date.now();
    fleet = startWorkerFleet({
      count: workers,
      repoRoot: inputs.repoRoot,
      databaseUrl: inputs.databaseUrl,
      // By address: the proxies leave from 127.0.x.y, which cannot reach "localhost" as ::1.
      upstreamUrl: `http://127.0.0.1:${inputs.simulator.port}`,
      smtpUrl: smtp.url,
      proxies: proxies.map((proxy) => proxy.url),
      dataDir: inputs.workDir,
      compression,
      logFile: path.join(
        inputs.workDir,
        `workers-${inputs.searches}-${inputs.addresses}-${workers}.log`,
      ),
    });
    await waitForWorkers(db, workers, fleet.readLogLines);
    const startupMs = Date.now() - startedAt;
    await spreadLastAnswers(db, inputs.groups, {
      alertingMs: schedule.alertingEveryIntervals * intervalMs,
      fullMs: schedule.pageOnlyEveryIntervals * intervalMs,
    });
    const onError = (error: unknown): void =>
      inputs.log(`  sampling failed: ${error instanceof Error ? error.message : String(error)}`);
    const sampler = startStalenessSampler(db, inputs.weights, SAMPLE_EVERY_MS, onError);
    const cycles = startCycleWatcher(db, onError);
    const windowStart = Date.now();
    const flipping = runFlips(
      inputs.simulator,
      inputs.probes,
      flipSpreadMs,
      createSeededRandom(inputs.addresses * 7919 + inputs.searches),
    );
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const counts = inputs.simulator.getAddressCounts();
    const tallies = proxies.map((proxy) => {
      const tally = counts.get(proxy.egressAddress);
      return {
        address: proxy.egressAddress,
        requests: tally?.requests ?? 0,
        answered541: tally?.answered541 ?? 0,
      };
    });
    const measuredMs = Date.now() - windowStart;
    const [samples, cycleRecord, flipped] = await Promise.all([
      sampler.stop(),
      cycles.stop(),
      flipping,
    ]);
    // Flips still on their way get a tail; the report says how many arrived.
    const tailEnd = Date.now() + flipTailMs;
    while (Date.now() < tailEnd) {
      const seen = arrivals.read();
      if (flipped.every(({ probe, flippedAt }) => findArrival(seen, probe, flippedAt))) break;
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
      alertingGroups: inputs.groups.filter((group) => group.isAlerting).length,
      addresses: inputs.addresses,
      workers,
      compression,
      sweeps: inputs.sweeps,
      schedule,
      windowMs: measuredMs,
      flipSpreadMs,
      tallies,
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
    await fleet?.stop();
    arrivals.stop();
    await smtp.close();
    await Promise.all(proxies.map(async (proxy) => proxy.close()));
  }
}

/**
 * A clean start for the next configuration: no queue left by the last one's workers, no
 * workers, addresses or promise on record, no alerts still queued from it (they would be
 * delivered to this configuration's SMTP server and crowd its figures), and no block left at
 * the simulator.
 */
export async function resetBetweenConfigurations(
  db: Db,
  simulator: RunningUpstreamSimulator,
): Promise<void> {
  await sql`drop schema if exists ${sql.id(QUEUE_SCHEMA)} cascade`.execute(db);
  await db.deleteFrom('watch_workers').execute();
  await db.deleteFrom('watch_freshness').execute();
  await db.deleteFrom('egress_addresses').execute();
  await db
    .updateTable('alert_outbox')
    .set({ status: 'suppressed', last_error: 'benchmark: queued before this configuration' })
    .where('status', 'in', ['pending', 'sending'])
    .execute();
  simulator.liftBlocks();
}

/** The addresses' sustained budget over the window (their buckets' burst comes on top). */
export function computeWindowBudget(result: ConfigurationResult): number {
  return (result.addresses * result.compression.ratePerMinute * result.windowMs) / 60_000;
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
