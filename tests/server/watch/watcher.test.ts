import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatcher, type PollOutcome, type RunningWatcher } from '#server/watch/index.ts';
import { listSeedParts, listSeedStores, startWatchHarness, type WatchHarness } from './support.ts';

/** Polls `check` until it returns true or `timeoutMs` passes: generous waits, never sleep-and-hope. */
async function waitFor(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('watcher on pg-boss', () => {
  let watch: WatchHarness;
  const watchers: RunningWatcher[] = [];
  const running = new Set<string>();
  let overlaps = 0;
  const outcomes: PollOutcome[] = [];
  let part: string;

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
    // Two workers on one database, as with `shelfwatch worker` run twice.
    for (let index = 0; index < 2; index += 1) {
      const [address] = watch.deps.pool.addresses;
      watchers.push(
        await startWatcher({
          db: watch.db,
          connectionString: watch.testDb.url,
          baseUrl: watch.simulator.url,
          pollIntervalSeconds: 1,
          upstreamRatePerMinute: 600,
          upstreamBurst: 5,
          quietWindowMinutes: 30,
          addresses: [
            {
              ...address,
              fetch: async (url, init) => {
                const search = new URL(url).searchParams;
                const key = search.get('location') ?? search.get('store') ?? url;
                if (running.has(key)) overlaps += 1;
                running.add(key);
                try {
                  return await address.fetch(url, init);
                } finally {
                  running.delete(key);
                }
              },
            },
          ],
          onPolled: (_job, outcome) => outcomes.push(outcome),
        }),
      );
    }
  });
  afterAll(async () => {
    for (const watcher of watchers) await watcher.stop();
    await watch.close();
  });

  it('covers every target and turns a flip into exactly one outbox row', async () => {
    await waitFor(async () => {
      const targets = await watch.db
        .selectFrom('poll_targets')
        .select('last_requested_at')
        .execute();
      return targets.length === 4 && targets.every((target) => target.last_requested_at !== null);
    });
    watch.simulator.setStatus('R075', part, 'available');
    await waitFor(
      async () => (await watch.db.selectFrom('alert_outbox').select('id').execute()).length > 0,
    );
    // Let a few more cycles run: the same answer must not alert again.
    const polledSoFar = outcomes.length;
    await waitFor(async () => outcomes.length >= polledSoFar + 6);
    const rows = await watch.db.selectFrom('alert_outbox').select(['channel', 'payload']).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      channel: 'email',
      payload: { items: [{ storeId: 'R075', partNumber: part }] },
    });
    expect(overlaps).toBe(0);
    expect(outcomes.every((outcome) => outcome.kind !== 'failed')).toBe(true);
  });
});
