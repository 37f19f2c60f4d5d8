import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCycleLog } from '#server/watch/cycle-log.ts';
import { createLogger, type Logger } from '#server/logging/logger.ts';
import type { PollOutcome, RunningWatcher } from '#server/watch/index.ts';
import { startConfiguredWatcher } from '#server/watch/start-watcher.ts';
import {
  listSeedParts,
  listSeedStores,
  startWatchHarness,
  type WatchHarness,
} from '#tests/server/watch/support.ts';

type LogRecord = { level: number; msg: string; component?: string };

/** A JSON logger whose records land in `records`. */
function createRecordingLogger(): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const logger = createLogger({
    level: 'info',
    isTerminal: false,
    destination: { write: (chunk) => records.push(JSON.parse(chunk) as LogRecord) },
  });
  return { logger, records };
}

const polled = (changes: number, restocks: number, alertsEnqueued: number): PollOutcome => ({
  kind: 'polled',
  requests: 1,
  report: { storesSeen: 12, changes, restocks, alertsEnqueued, storesLearned: 0 },
});
const quiet: PollOutcome = polled(0, 0, 0);
const skipped: PollOutcome = { kind: 'skipped', reason: 'covered' };
const blocked: PollOutcome = {
  kind: 'failed',
  requests: 1,
  failureKind: 'blocked',
  coolDownSeconds: 300,
};

/** Polls `check` until it holds or `timeoutMs` passes. */
async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the cycle log', () => {
  it('says nothing about a cycle that changed nothing and had no failures', () => {
    const { logger, records } = createRecordingLogger();
    const cycleLog = createCycleLog(logger, () => 5000);
    cycleLog.recordPlanned(1000, 3);
    for (const outcome of [quiet, skipped, quiet]) cycleLog.recordPolled(1000, outcome);
    cycleLog.flush();
    expect(records).toEqual([]);
  });

  it('writes one line once the last of a changed cycle’s polls reported', () => {
    const { logger, records } = createRecordingLogger();
    const cycleLog = createCycleLog(logger, () => 5000);
    cycleLog.recordPlanned(1000, 3);
    cycleLog.recordPolled(1000, polled(2, 1, 1));
    cycleLog.recordPolled(1000, quiet);
    expect(records).toEqual([]);
    cycleLog.recordPolled(1000, polled(1, 1, 2));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      level: 30,
      msg: '3 requests this cycle: 3 availability changes (2 restocks), 3 alerts queued',
    });
  });

  it('writes a warning naming the failure kinds of a cycle with failed requests', () => {
    const { logger, records } = createRecordingLogger();
    const cycleLog = createCycleLog(logger, () => 5000);
    cycleLog.recordPolled(1000, blocked);
    cycleLog.recordPlanned(1000, 3);
    cycleLog.recordPolled(1000, quiet);
    cycleLog.recordPolled(1000, blocked);
    expect(records).toEqual([
      expect.objectContaining({
        level: 40,
        msg: '3 requests this cycle: 2 failed (blocked ×2)',
      }),
    ]);
  });

  it('closes a cycle another worker planned when a newer one shows up', () => {
    const { logger, records } = createRecordingLogger();
    const cycleLog = createCycleLog(logger, () => 5000);
    cycleLog.recordPolled(1000, polled(1, 1, 0));
    expect(records).toEqual([]);
    cycleLog.recordPolled(2000, quiet);
    expect(records.map((record) => record.msg)).toEqual([
      '1 request this cycle: 1 availability change (1 restock), 0 alerts queued',
    ]);
  });

  it('closes a cycle of ours whose poll never reported once no poll of it can still report', () => {
    const { logger, records } = createRecordingLogger();
    let now = 1000;
    const cycleLog = createCycleLog(logger, () => now);
    cycleLog.recordPlanned(1000, 2);
    cycleLog.recordPolled(1000, polled(1, 0, 0));
    now += 60_000;
    cycleLog.recordPlanned(now, 0);
    expect(records).toEqual([]);
    now += 6 * 60_000;
    cycleLog.recordPlanned(now, 0);
    expect(records).toHaveLength(1);
  });
});

describe('the configured watcher’s log', () => {
  let watch: WatchHarness;
  let watcher: RunningWatcher | undefined;
  let part: string;
  const { logger, records } = createRecordingLogger();
  const countRequests = async (): Promise<number> =>
    (await watch.db.selectFrom('upstream_requests').select('id').execute()).length;

  beforeAll(async () => {
    watch = await startWatchHarness({ startMs: Date.now() });
    part = listSeedParts('US', 'iphone16pro')[0]!;
    for (const storeId of listSeedStores('en_US'))
      watch.simulator.setStatus(storeId, part, 'unavailable');
    const user = await watch.createUser('premium', 'best');
    for (const storeId of ['R095', 'R032', 'R075', 'R033']) {
      await watch.createSearch(user, {
        productId: 'iphone16pro',
        storeId,
        preferred: [part],
        isText: false,
      });
    }
    watcher = await startConfiguredWatcher({
      db: watch.db,
      connectionString: watch.testDb.url,
      config: {
        watch: {
          isEnabled: true,
          pollIntervalSeconds: 1,
          upstreamRatePerMinute: 600,
          upstreamBurst: 5,
          fullSweepMinutes: 60,
        },
        upstream: {
          baseUrl: watch.simulator.url,
          shape: 'pickup-message',
          proxies: [],
          isDirect: true,
          allowH2: false,
          partsPerRequest: 40,
          controlParts: new Map(),
          coolDownSeconds: 300,
          maxCoolDownSeconds: 3600,
        },
        alerts: { quietWindowMinutes: 30 },
      },
      logger,
    });
  });
  afterAll(async () => {
    await watcher?.stop();
    await watch.close();
  });

  it('is silent through quiet cycles and writes one line for the cycle that saw a restock', async () => {
    // The first answers record every store's first status: those cycles do report changes.
    await waitFor(async () => {
      const targets = await watch.db
        .selectFrom('poll_targets')
        .select('last_requested_at')
        .execute();
      return targets.length === 4 && targets.every((target) => target.last_requested_at !== null);
    });
    // Settled once a stretch of requests files no availability event and logs no line: later
    // sweeps may ask from other seeds whose answers list a store for the first time (a change),
    // and a changed cycle's line comes only when its last request has reported.
    const countEvents = async (): Promise<number> =>
      (await watch.db.selectFrom('availability_events').select('id').execute()).length;
    for (let round = 0; ; round += 1) {
      expect(round).toBeLessThan(20);
      const [lines, events, requests] = [
        records.length,
        await countEvents(),
        await countRequests(),
      ];
      await waitFor(async () => (await countRequests()) >= requests + 4);
      if (records.length === lines && (await countEvents()) === events) break;
    }
    const linesBeforeQuiet = records.length;
    expect(linesBeforeQuiet).toBeGreaterThan(0);

    const beforeQuiet = await countRequests();
    await waitFor(async () => (await countRequests()) >= beforeQuiet + 6);
    expect(records.slice(linesBeforeQuiet)).toEqual([]);

    watch.simulator.setStatus('R075', part, 'available');
    await waitFor(
      async () => (await watch.db.selectFrom('alert_outbox').select('id').execute()).length > 0,
    );
    const afterRestock = await countRequests();
    await waitFor(async () => (await countRequests()) >= afterRestock + 6);
    expect(records.slice(linesBeforeQuiet)).toEqual([
      expect.objectContaining({
        level: 30,
        component: 'watch',
        msg: expect.stringMatching(
          /^\d+ requests? this cycle: 1 availability change \(1 restock\), 1 alert queued$/,
        ) as unknown,
      }),
    ]);
  });
});
