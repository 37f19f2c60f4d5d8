import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { PgBoss } from 'pg-boss';
import type { Db } from '#server/db/database.ts';
import {
  createTokenBucketLimiter,
  type EndpointShape,
  type FetchLike,
} from '#shared/upstream/index.ts';
import type { PollGroupKey } from '#shared/watch/index.ts';
import {
  deleteWatchWorker,
  upsertWatchWorker,
} from '#server/db/repositories/watch-workers-repository.ts';
import { describeFreshness } from '#shared/watch/index.ts';
import { formatPollJobKey, planWatchCycle } from './plan-cycle.ts';
import { pollGroup, type PollerDeps } from './poll-group.ts';
import { dropLegacyQueueSchema, QUEUE_SCHEMA } from './queue-schema.ts';

/** pg-boss queue that plans a cycle; one queued and one running at most. */
export const WATCH_CYCLE_QUEUE = 'shelfwatch-watch-cycle';
/** pg-boss queue of one group's upstream request; its singleton key is the group. */
export const WATCH_POLL_QUEUE = 'shelfwatch-watch-poll';

/** Settings of a watcher process. */
export type WatcherOptions = {
  db: Db;
  /** PostgreSQL URL pg-boss connects with (the same database as `db`). */
  connectionString: string;
  baseUrl: string;
  shape?: EndpointShape;
  pollIntervalSeconds: number;
  upstreamRatePerMinute: number;
  upstreamBurst: number;
  quietWindowMinutes: number;
  /** Groups polled at once by this process; the token bucket paces them anyway. */
  concurrency?: number;
  /** Fraction of the interval a cycle may start early or late, so workers never beat in step. */
  jitterRatio?: number;
  fetch?: FetchLike;
  now?: () => number;
  random?: () => number;
  log?: (line: string) => void;
  /** Called after each poll job with its cycle's start (the server's cycle log, tests, the benchmark). */
  onPolled?: (
    group: PollGroupKey,
    outcome: Awaited<ReturnType<typeof pollGroup>>,
    cycleStartedAt: number,
  ) => void;
  /** Called once a cycle this process planned has queued its due groups. */
  onCyclePlanned?: (cycleStartedAt: number, dueCount: number) => void;
  /** Called with "every group fresh within N min" when what the total budget gives changes. */
  onFreshness?: (description: string) => void;
};

/** A running watcher. */
export type RunningWatcher = {
  /** Asks for a cycle now (deduplicated against one already queued). */
  requestCycle: () => Promise<void>;
  stop: () => Promise<void>;
};

/** Poll jobs a worker takes per fetch. */
const POLL_BATCH_SIZE = 10;
/** How soon a cycle that found the last one still queued looks again. */
const BUSY_RECHECK_SECONDS = 1;
/** A claimed job whose worker sent no heartbeat for this long goes back to the queue. */
const HEARTBEAT_SECONDS = 20;
/** How often pg-boss looks for jobs past their heartbeat. */
const SUPERVISE_SECONDS = 10;
/** How often a worker says it is alive (well inside the planner's liveness window). */
const HEARTBEAT_MS = 30_000;

type CycleJob = { reason: string };
type PollJob = PollGroupKey & { cycleStartedAt: number };

/**
 * Starts the poller on pg-boss: a cycle job re-schedules itself every interval with jitter
 * and fans the due groups out as poll jobs, stalest first. Any number of processes may run
 * this: the stately queues keep one cycle and one job per group queued and running at most.
 */
export async function startWatcher(options: WatcherOptions): Promise<RunningWatcher> {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const log = options.log ?? (() => undefined);
  const intervalMs = options.pollIntervalSeconds * 1000;
  const jitterRatio = options.jitterRatio ?? 0.1;
  const deps: PollerDeps = {
    db: options.db,
    fetch: options.fetch ?? ((url, init) => fetch(url, init)),
    now,
    random,
    limiter: createTokenBucketLimiter({
      capacity: options.upstreamBurst,
      refillPerSecond: options.upstreamRatePerMinute / 60,
      now,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    }),
    baseUrl: options.baseUrl,
    shape: options.shape ?? 'fulfillment-messages',
    intervalMs,
    quietWindowMs: options.quietWindowMinutes * 60_000,
  };
  const droppedVersion = await dropLegacyQueueSchema(options.db);
  if (droppedVersion !== undefined)
    log(
      `watcher queue: dropped the pg-boss 10 queue schema (version ${droppedVersion}); a new one is installed`,
    );
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: QUEUE_SCHEMA,
    max: 4,
    schedule: false,
    // Checks job heartbeats this often: with the queues' heartbeat a killed worker's jobs go
    // back to the queue within HEARTBEAT_SECONDS plus this, not at the five-minute expiry.
    superviseIntervalSeconds: SUPERVISE_SECONDS,
    // Heartbeat failures are found by the monitor pass, claimed per queue at this interval.
    monitorIntervalSeconds: SUPERVISE_SECONDS,
  });
  boss.on('error', (error) => log(`watcher queue error: ${error.message}`));
  // Declares this worker's budget: the planner splits the sum of all live workers' budgets.
  const worker = {
    id: randomUUID(),
    label: `${os.hostname()}:${process.pid}`,
    budgetPerMinute: options.upstreamRatePerMinute,
  };
  const sayAlive = async (): Promise<void> => {
    try {
      await upsertWatchWorker(options.db, { ...worker, seenAt: new Date(now()) });
    } catch (error) {
      log(
        `watch worker heartbeat failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  await sayAlive();
  const heartbeat = setInterval(() => void sayAlive(), HEARTBEAT_MS);
  heartbeat.unref();
  let lastFreshness = '';
  await boss.start();
  const jobLease = { retryLimit: 1, expireInSeconds: 300, heartbeatSeconds: HEARTBEAT_SECONDS };
  await boss.createQueue(WATCH_CYCLE_QUEUE, { policy: 'stately', ...jobLease });
  // A job waits for its host's token inside its lease, so the expiry stays long; the heartbeat
  // is what notices a dead worker. One retry lets a live worker take over a killed one's job;
  // the just-in-time check skips it when an answer already covered the group.
  await boss.createQueue(WATCH_POLL_QUEUE, { policy: 'stately', ...jobLease });
  // createQueue leaves an existing queue as it was: bring queues of older installs up to date.
  await boss.updateQueue(WATCH_CYCLE_QUEUE, jobLease);
  await boss.updateQueue(WATCH_POLL_QUEUE, jobLease);

  const requestCycle = async (startAfterSeconds = 0, reason = 'requested'): Promise<void> => {
    await boss.send(WATCH_CYCLE_QUEUE, { reason } satisfies CycleJob, {
      singletonKey: 'cycle',
      startAfter: Math.max(0, Math.round(startAfterSeconds)),
    });
  };

  await boss.work<CycleJob>(WATCH_CYCLE_QUEUE, { pollingIntervalSeconds: 1 }, async () => {
    // A cycle starts only once the last one's jobs have all been taken: when the upstream's
    // rate makes a cycle outlast the interval, cycles run back to back instead of piling
    // up, so a group planned late in one cycle is never starved by the next cycle's.
    if ((await boss.findJobs(WATCH_POLL_QUEUE, { queued: true, limit: 1 })).length > 0) {
      await requestCycle(BUSY_RECHECK_SECONDS, 'busy');
      return;
    }
    try {
      await sayAlive();
      const { cycleStartedAt, plan, schedule } = await planWatchCycle(deps);
      const freshness = schedule === undefined ? '' : describeFreshness(schedule);
      if (freshness !== lastFreshness) {
        lastFreshness = freshness;
        options.onFreshness?.(freshness);
      }
      const jobs = plan.due.map((target, index) => ({
        data: {
          countryCode: target.countryCode,
          productId: target.productId,
          storeId: target.storeId,
          cycleStartedAt,
        } satisfies PollJob,
        singletonKey: formatPollJobKey(target),
        // Jobs inserted together share a creation time, so the priority carries the staleness order.
        priority: plan.due.length - index,
      }));
      for (let start = 0; start < jobs.length; start += 500) {
        await boss.insert(WATCH_POLL_QUEUE, jobs.slice(start, start + 500));
      }
      options.onCyclePlanned?.(cycleStartedAt, jobs.length);
    } finally {
      const jitter = (random() * 2 - 1) * jitterRatio * intervalMs;
      await requestCycle((intervalMs + jitter) / 1000, 'schedule');
    }
  });

  for (let worker = 0; worker < (options.concurrency ?? 4); worker += 1) {
    // pg-boss waits out its polling interval after every fetch, even a fruitful one, so each
    // worker takes a small batch (in priority order) to keep up with cycles where most
    // groups are skipped as covered in a few milliseconds.
    await boss.work<PollJob>(
      WATCH_POLL_QUEUE,
      { pollingIntervalSeconds: 0.5, batchSize: POLL_BATCH_SIZE },
      async (jobs) => {
        for (const job of jobs) {
          const { cycleStartedAt, ...group } = job.data;
          try {
            const outcome = await pollGroup(deps, group, cycleStartedAt);
            options.onPolled?.(group, outcome, cycleStartedAt);
          } catch (error) {
            // One group's database trouble must not sink the rest of the batch; the next cycle asks again.
            log(
              `watch poll ${formatPollJobKey(group)} crashed: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
        }
      },
    );
  }
  await requestCycle(0, 'start');
  return {
    requestCycle: () => requestCycle(0, 'requested'),
    stop: async () => {
      clearInterval(heartbeat);
      // stop() resolves once the workers have finished (pg-boss 12 has no `wait` switch).
      await boss.stop({ graceful: true, timeout: 5000 });
      await deleteWatchWorker(options.db, worker.id);
    },
  };
}
