import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertWatchWorker } from '#server/db/repositories/watch-workers-repository.ts';
import type { SearchRow, UserRow } from '#server/db/schema.ts';
import { readSearchInventory } from '#server/searches/inventory-service.ts';
import { planWatchCycle } from '#server/watch/plan-cycle.ts';
import { computeWatchStatus } from '#server/watch/watch-status.ts';
import { listSeedParts, startWatchHarness, type WatchHarness } from './support.ts';

// Issue 11: a stalled poller shows on the search page and the status page within two
// intervals, measured against what the workers' budget promises, not a fixed ten minutes.

const INTERVAL_MS = 60_000;

let watch: WatchHarness;
let user: UserRow;
let search: SearchRow;

beforeAll(async () => {
  watch = await startWatchHarness({ intervalSeconds: INTERVAL_MS / 1000 });
  user = await watch.createUser('stalled', 'best');
  search = await watch.createSearch(user, {
    productId: 'iphone16',
    storeId: 'R095',
    preferred: [listSeedParts('US', 'iphone16')[0] ?? ''],
  });
  await upsertWatchWorker(watch.db, {
    id: 'only-worker',
    label: 'test',
    budgetPerMinute: 30,
    seenAt: new Date(watch.now()),
  });
  await planWatchCycle(watch.deps);
  await watch.runCycle();
});

afterAll(async () => {
  await watch.close();
});

describe('a stalled poller', () => {
  it('is fresh right after a cycle', async () => {
    const inventory = await readSearchInventory(watch.db, user, search.id, watch.now());
    expect(inventory.is_stale).toBe(false);
    const status = await computeWatchStatus(watch.db, { now: watch.now() });
    expect(status.is_delayed).toBe(false);
    expect(status.freshness).toMatchObject({
      promise: 'every group fresh within 2 min',
      workers: 1,
      overdue_groups: 0,
      is_planner_stalled: false,
    });
  });

  it('turns the stale warning and the status page on within two intervals', async () => {
    watch.advance(2 * INTERVAL_MS + 5_000);
    const inventory = await readSearchInventory(watch.db, user, search.id, watch.now());
    expect(inventory.is_stale).toBe(true);
    const status = await computeWatchStatus(watch.db, { now: watch.now() });
    expect(status.is_delayed).toBe(true);
    expect(status.freshness?.overdue_groups).toBe(1);
  });
});
