import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listGroupDemand } from '#server/db/repositories/group-demand-repository.ts';
import {
  findWatchFreshness,
  summariseLiveWorkers,
  upsertWatchWorker,
} from '#server/db/repositories/watch-workers-repository.ts';
import { planWatchCycle } from '#server/watch/plan-cycle.ts';
import { listSeedParts, listSeedStores, startWatchHarness, type WatchHarness } from './support.ts';

const MINUTE = 60_000;

let watch: WatchHarness;
const [storeA, storeB, storeC, storeD] = listSeedStores('en_US');
const parts = listSeedParts('US', 'iphone16');

beforeAll(async () => {
  watch = await startWatchHarness();
  // Alerting: Better plan, a preferred model, email on.
  const better = await watch.createUser('better', 'better');
  await watch.createSearch(better, {
    productId: 'iphone16',
    storeId: storeA,
    preferred: [parts[0]],
  });
  // Page-only: no preferred model.
  await watch.createSearch(better, { productId: 'iphone16', storeId: storeB, preferred: [] });
  // Page-only: Good plan has no email or text, and no browser is subscribed.
  const good = await watch.createUser('good', 'good');
  await watch.createSearch(good, { productId: 'iphone16', storeId: storeC, preferred: [parts[0]] });
  // Page-only: the account switch is off.
  const quiet = await watch.createUser('quiet', 'best', { isNotificationsEnabled: false });
  await watch.createSearch(quiet, {
    productId: 'iphone16',
    storeId: storeD,
    preferred: [parts[0]],
  });
});

afterAll(async () => {
  await watch.close();
});

describe('group demand', () => {
  it('counts a search as alerting only with a preferred model and a channel that would carry it', async () => {
    const demand = await listGroupDemand(watch.db);
    const alertingByStore = Object.fromEntries(
      demand.map((row) => [row.store_id, row.alerting_searches]),
    );
    expect(alertingByStore).toEqual({ [storeA]: 1, [storeB]: 0, [storeC]: 0, [storeD]: 0 });
    expect(demand.every((row) => row.searches === 1 && row.country_code === 'US')).toBe(true);
  });
});

describe('planning within the workers’ budget', () => {
  it('asks every group without a registered worker and saves no promise', async () => {
    const { plan, schedule } = await planWatchCycle(watch.deps);
    expect(schedule).toBeUndefined();
    expect(plan.due).toHaveLength(4);
    expect(await findWatchFreshness(watch.db)).toBeUndefined();
  });

  it('puts the alerting group first and records what the live workers’ budget gives', async () => {
    // Two workers of one request a minute: 2 requests an interval for 1 alerting and 3 page-only groups.
    for (const id of ['w1', 'w2']) {
      await upsertWatchWorker(watch.db, {
        id,
        label: id,
        budgetPerMinute: 1,
        seenAt: new Date(watch.now()),
      });
    }
    const { plan, schedule } = await planWatchCycle(watch.deps);
    expect(plan.due[0].storeId).toBe(storeA);
    expect(schedule).toMatchObject({ alertingEveryIntervals: 1, pageOnlyEveryIntervals: 3 });
    expect(await findWatchFreshness(watch.db)).toMatchObject({
      workers: 2,
      budget_per_minute: 2,
      alerting_groups: 1,
      page_only_groups: 3,
      alerting_fresh_within_ms: 2 * MINUTE,
      all_fresh_within_ms: 4 * MINUTE,
    });
  });

  it('stops counting a worker that has not been seen for two minutes', async () => {
    watch.advance(3 * MINUTE);
    await upsertWatchWorker(watch.db, {
      id: 'w3',
      label: 'w3',
      budgetPerMinute: 5,
      seenAt: new Date(watch.now()),
    });
    expect(await summariseLiveWorkers(watch.db, new Date(watch.now() - 2 * MINUTE))).toEqual({
      workers: 1,
      budgetPerMinute: 5,
    });
  });
});
