import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatcher, type PollOutcome, type RunningWatcher } from '#server/watch/index.ts';
import { startWatchHarness, type WatchHarness } from './support.ts';

// At the shipped pace (a request a minute per address) a worker nearly always has requests
// waiting for a token; stopping it must drop them at once and let nothing run on against a
// database that is closed next (SIGTERM to `shelfwatch worker`).

describe('stopping a watcher with requests waiting for a token', () => {
  let watch: WatchHarness;
  let watcher: RunningWatcher;
  const logged: string[] = [];
  const outcomes: PollOutcome[] = [];

  beforeAll(async () => {
    watch = await startWatchHarness({ startMs: Date.now() });
    const user = await watch.createUser('premium', 'best');
    // Stores in three countries: no answer covers another, so three requests are due.
    for (const storeId of ['R095', 'R075', 'R035']) {
      await watch.createSearch(user, { productId: 'iphone16pro', storeId, preferred: [] });
    }
    watcher = await startWatcher({
      db: watch.db,
      connectionString: watch.testDb.url,
      baseUrl: watch.simulator.url,
      pollIntervalSeconds: 60,
      // One token now, the next in two minutes: the other requests wait.
      upstreamRatePerMinute: 0.5,
      upstreamBurst: 1,
      quietWindowMinutes: 30,
      addresses: watch.deps.pool.addresses,
      log: (line) => logged.push(line),
      onPolled: (_job, outcome) => outcomes.push(outcome),
    });
  });
  afterAll(async () => {
    await watch.close();
  });

  it('returns within seconds, asks nothing more and leaves nothing running', async () => {
    const deadline = Date.now() + 30_000;
    while (watch.simulator.getRequestCount() < 1 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(watch.simulator.getRequestCount()).toBe(1);
    // Give the other requests time to start waiting for their token.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const started = Date.now();
    await watcher.stop();
    expect(Date.now() - started).toBeLessThan(10_000);
    // The waiting requests had ended by the time stop() returned, dropped unasked (a job
    // still queued in the same batch is not started at all).
    const kinds = outcomes.map((outcome) => outcome.kind);
    expect(kinds.filter((kind) => kind === 'polled')).toHaveLength(1);
    expect(kinds.filter((kind) => kind === 'skipped').length).toBeGreaterThanOrEqual(1);
    expect(kinds.length).toBe(kinds.filter((kind) => kind !== 'failed').length);
    const outcomesAtStop = outcomes.length;
    expect(watch.simulator.getRequestCount()).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(outcomes).toHaveLength(outcomesAtStop);
    expect(logged.filter((line) => line.includes('crashed'))).toEqual([]);
  });
});
