import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listGroupDemand } from '#server/db/repositories/group-demand-repository.ts';
import { listLiveEgressAddresses } from '#server/db/repositories/egress-repository.ts';
import { recordSeedAnswer } from '#server/db/repositories/upstream-knowledge-repository.ts';
import { findWatchFreshness } from '#server/db/repositories/watch-workers-repository.ts';
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

describe('planning requests within the addresses’ budget', () => {
  it('asks each store’s own location while nothing was learned, the alerting store first', async () => {
    const { jobs, sweepRequests, alertingSweepRequests } = await planWatchCycle(watch.deps);
    expect(jobs.map((job) => job.target)).toEqual([
      { kind: 'location', seedStoreId: storeA },
      ...[storeB, storeC, storeD]
        .sort()
        .map((storeId) => ({ kind: 'location', seedStoreId: storeId })),
    ]);
    expect(jobs[0]).toMatchObject({ productIds: ['iphone16'], storeIds: [storeA] });
    expect(jobs[0].location).toMatch(/\d{5}/);
    expect({ sweepRequests, alertingSweepRequests }).toEqual({
      sweepRequests: 4,
      alertingSweepRequests: 1,
    });
  });

  it('covers every store with one request once an answer showed one seed lists them all', async () => {
    await recordSeedAnswer(watch.db, {
      country_code: 'US',
      seed_store_id: storeC,
      location: '00000',
      store_ids: [storeA, storeB, storeC, storeD],
      at: new Date(watch.now()),
    });
    const { jobs } = await planWatchCycle(watch.deps);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      target: { kind: 'location', seedStoreId: storeC },
      productIds: ['iphone16'],
    });
    expect(jobs[0].storeIds.sort()).toEqual([storeA, storeB, storeC, storeD].sort());
  });

  it('asks a store alone when its own seed’s answer left it out and no other lists it', async () => {
    await recordSeedAnswer(watch.db, {
      country_code: 'US',
      seed_store_id: storeC,
      location: '00000',
      store_ids: [storeA, storeB, storeC],
      at: new Date(watch.now()),
    });
    await recordSeedAnswer(watch.db, {
      country_code: 'US',
      seed_store_id: storeD,
      location: '00001',
      store_ids: [storeA],
      at: new Date(watch.now()),
    });
    const { jobs } = await planWatchCycle(watch.deps);
    expect(jobs.map((job) => job.target)).toContainEqual({ kind: 'store', storeId: storeD });
    expect(jobs).toHaveLength(2);
  });

  it('records what the live addresses’ budget gives and spends leftovers on the stalest targets', async () => {
    // One address of one request a minute: one request an interval for the sweep of two.
    await watch.db.updateTable('egress_addresses').set({ rate_per_minute: 1 }).execute();
    const { jobs, schedule } = await planWatchCycle(watch.deps);
    expect(schedule).toMatchObject({ requestsPerInterval: 1 });
    expect(jobs[0].storeIds).toContain(storeA);
    expect(await findWatchFreshness(watch.db)).toMatchObject({
      budget_per_minute: 1,
      alerting_groups: 1,
      page_only_groups: 3,
    });
    await watch.db.updateTable('egress_addresses').set({ rate_per_minute: 1000 }).execute();
  });

  it('stops counting an address no live process declared for two minutes', async () => {
    watch.advance(3 * MINUTE);
    expect(await listLiveEgressAddresses(watch.db, new Date(watch.now() - 2 * MINUTE))).toEqual([]);
    const { schedule } = await planWatchCycle(watch.deps);
    expect(schedule).toBeUndefined();
  });
});
