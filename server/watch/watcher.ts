import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { PgBoss } from 'pg-boss';
import type { Db } from '#server/db/database.ts';
import type { EndpointShape } from '#shared/upstream/index.ts';
import {
  deleteWatchWorker,
  upsertWatchWorker,
} from '#server/db/repositories/watch-workers-repository.ts';
import { touchEgressAddresses } from '#server/db/repositories/egress-repository.ts';
import { describeFreshness, formatRequestKey } from '#shared/watch/index.ts';
import { DEFAULT_PARTS_PER_REQUEST } from '#shared/watch/engine/index.ts';
import { createEgressAddresses } from './egress-agents.ts';
import { declareEgressPool, type EgressAddress, type EgressPool } from './egress.ts';
import { planWatchCycle } from './plan-cycle.ts';
import type { PollerDeps, RequestJob } from './poll-job.ts';
import { pollRequest, type PollOutcome } from './poll-request.ts';
import {
  dropLegacyQueueSchema,
  QUEUE_SCHEMA,
  WATCH_CYCLE_QUEUE,
  WATCH_POLL_QUEUE,
} from '#server/db/queue-schema.ts';

/** Settings of a watcher process. */
export type WatcherOptions = {
  db: Db;
  /** PostgreSQL URL pg-boss connects with (the same database as `db`). */
  connectionString: string;
  baseUrl: string;
  shape?: EndpointShape;
  pollIntervalSeconds: number;
  /** Per egress address, shared by every process using it. */
  upstreamRatePerMinute: number;
  upstreamBurst: number;
  /** How often full sweeps aim to ask every watched part (default 60 minutes). */
  fullSweepMinutes?: number;
  quietWindowMinutes: number;
  /** Proxy URLs; each is one more egress address. */
  proxies?: readonly string[];
  /** Ask directly too (default true). */
  isDirect?: boolean;
  allowH2?: boolean;
  /** Addresses made by the caller (tests stand for several addresses this way); replaces proxies and direct. */
  addresses?: readonly EgressAddress[];
  partsPerRequest?: number;
  controlParts?: ReadonlyMap<string, string>;
  coolDownSeconds?: number;
  maxCoolDownSeconds?: number;
  /** Requests run at once by this process; the shared buckets pace them anyway. */
  concurrency?: number;
  /** Fraction of the interval a cycle may start early or late, so workers never beat in step. */
  jitterRatio?: number;
  now?: () => number;
  random?: () => number;
  log?: (line: string) => void;
  /** Called after each request job with its cycle's start (the server's cycle log, tests, the benchmark). */
  onPolled?: (job: RequestJob, outcome: PollOutcome, cycleStartedAt: number) => void;
  /** Called once a cycle this process planned has queued its due groups. */
  onCyclePlanned?: (cycleStartedAt: number, dueCount: number) => void;
  /** Called with "every target fresh within N min" when what the total budget gives changes. */
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
  const addresses =
    options.addresses ??
    createEgressAddresses({
      proxies: options.proxies ?? [],
      isDirect: options.isDirect ?? true,
      allowH2: options.allowH2 ?? true,
    });
  const stopping = new AbortController();
  // Handlers still running: stop() waits for them, so nothing touches the database after it.
  const inFlight = new Set<Promise<unknown>>();
  const track = async <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    try {
      return await work;
    } finally {
      inFlight.delete(work);
    }
  };
  const pool: EgressPool = {
    addresses,
    ratePerMinute: options.upstreamRatePerMinute,
    burst: options.upstreamBurst,
    baseCoolDownMs: (options.coolDownSeconds ?? 300) * 1000,
    maxCoolDownMs:
      Math.max(options.coolDownSeconds ?? 300, options.maxCoolDownSeconds ?? 3600) * 1000,
  };
  const deps: PollerDeps & {
    controlParts?: ReadonlyMap<string, string>;
    fullSweepMs?: number;
  } = {
    db: options.db,
    now,
    random,
    // Token waits end at once when the worker stops (the signal), so stop() need not wait minutes.
    sleep: (ms) => delay(ms, undefined, { signal: stopping.signal }).catch(() => undefined),
    signal: stopping.signal,
    pool,
    baseUrl: options.baseUrl,
    shape: options.shape ?? 'pickup-message',
    intervalMs,
    quietWindowMs: options.quietWindowMinutes * 60_000,
    partsPerRequest: options.partsPerRequest ?? DEFAULT_PARTS_PER_REQUEST,
    controlParts: options.controlParts,
    fullSweepMs: (options.fullSweepMinutes ?? 60) * 60_000,
  };
  await declareEgressPool(options.db, pool, now());
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
  // Declares this worker alive; the budget is the egress addresses', whoever uses them.
  const worker = {
    id: randomUUID(),
    label: `${os.hostname()}:${process.pid}`,
    budgetPerMinute: options.upstreamRatePerMinute * addresses.length,
  };
  const sayAlive = async (): Promise<void> => {
    try {
      await upsertWatchWorker(options.db, { ...worker, seenAt: new Date(now()) });
      await touchEgressAddresses(
        options.db,
        addresses.map((address) => address.label),
        new Date(now()),
      );
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
    if (stopping.signal.aborted) return;
    try {
      await sayAlive();
      const planned = await track(planWatchCycle(deps));
      const { cycleStartedAt, schedule } = planned;
      const freshness = schedule === undefined ? '' : describeFreshness(schedule);
      if (freshness !== lastFreshness) {
        lastFreshness = freshness;
        options.onFreshness?.(freshness);
      }
      const jobs = planned.jobs.map((job, index) => ({
        data: job,
        singletonKey: formatRequestKey({
          countryCode: job.countryCode,
          target: job.target,
          productIds: job.productIds,
        }),
        // Jobs inserted together share a creation time, so the priority carries the plan's order.
        priority: planned.jobs.length - index,
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
    await boss.work<RequestJob>(
      WATCH_POLL_QUEUE,
      { pollingIntervalSeconds: 0.5, batchSize: POLL_BATCH_SIZE },
      async (jobs) => {
        for (const job of jobs) {
          if (stopping.signal.aborted) return;
          try {
            const outcome = await track(pollRequest(deps, job.data));
            options.onPolled?.(job.data, outcome, job.data.cycleStartedAt);
          } catch (error) {
            // One request's database trouble must not sink the rest of the batch; the next cycle asks again.
            log(
              `watch request ${formatRequestKey(job.data)} crashed: ${error instanceof Error ? error.message : String(error)}`,
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
      stopping.abort();
      // stop() resolves once the workers have finished (pg-boss 12 has no `wait` switch)...
      await boss.stop({ graceful: true, timeout: 5000 });
      // ...or once its timeout passed: a request mid-answer is let finish all the same.
      await Promise.allSettled([...inFlight]);
      await deleteWatchWorker(options.db, worker.id);
      if (options.addresses === undefined) {
        await Promise.all(addresses.map((address) => address.close()));
      }
    },
  };
}
