// The local watch loop asks as the server's engine does: all of the user's searches packed
// into as few location-seed requests as the learned answer lists allow, within one address's
// budget, with the endpoint shape remembered, a control part and refused parts left out.
// Against the simulator over real HTTP, which behaves like Apple today (its block is on).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/index.ts';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import type { LocalSearch } from '#shared/desktop/local-search.ts';
import {
  createEmptyWatchState,
  listNearestStoreIds,
  parseWatchState,
  snapshotKey,
} from '#shared/watch/local/index.ts';
import {
  START_MS,
  findForeignPart,
  startSimulatorHarness,
  type SimulatorHarness,
} from '#tests/server/simulator/support.ts';
import {
  createMemoryBudgetStore,
  createSharedClock,
  createWatcherHarness,
  readSimulatorCounts,
  type SharedClock,
} from './support.ts';

const catalog = createDesktopCatalog();
const FIVE_MINUTES = 5 * 60_000;
let nextId = 1;

/** A search with every model preferred, nearby stores off. */
function makeSearch(productType: string, storeId: string): LocalSearch {
  const store = catalog.findStore(storeId)!;
  const id = String(nextId++).padStart(12, '0');
  return {
    id: `00000000-0000-4000-8000-${id}`,
    product_type: productType,
    store_id: storeId,
    include_nearby_store_results: false,
    show_results_only_for_preferred_models: false,
    max_distance_miles: null,
    preferred_parts: catalog
      .listModels(productType, store.country_code)
      .map((model) => model.part_number),
    created_at: '2026-01-15T12:00:00.000Z',
  };
}

describe('the local watch loop on a budget (Apple today)', () => {
  let sim: SimulatorHarness;
  let clock: SharedClock;

  beforeAll(async () => {
    sim = await startSimulatorHarness({ seed: 11 });
    clock = createSharedClock(sim, START_MS);
  });
  afterAll(async () => {
    await sim?.close();
  });
  afterEach(async () => {
    await sim.control('DELETE', '/_sim/stock');
    await sim.control('DELETE', '/_sim/fault');
    await sim.control('DELETE', '/_sim/blocks');
    await sim.control('DELETE', '/_sim/stock');
    clock.advance(24 * 60 * 60_000);
  });

  it("the macOS app's watcher with ten searches at stores of one city sends one request per five-minute check", async () => {
    const newYork = ['R095', 'R032', 'R415', 'R250', 'R251', 'R582', 'R654'];
    expect(newYork.every((id) => catalog.findStore(id)?.city === 'New York')).toBe(true);
    // 15 + 2 + 2 parts: with the control part, the 20 Apple answers in one request.
    const searches = [
      ...newYork.map((storeId) => makeSearch('iphone16', storeId)),
      makeSearch('airpods', 'R095'),
      makeSearch('homepod', 'R032'),
      makeSearch('airpods', 'R654'),
    ];
    // The control part vouches for an answer only where some listed store has it; the
    // simulator's random shelves may empty it at all twelve, which reads as a broken answer.
    for (const model of catalog.listModels('airpods', 'US')) {
      await sim.control('POST', '/_sim/stock', {
        store_id: 'R095',
        part_number: model.part_number,
        status: 'available',
      });
    }
    const { watcher, lines } = createWatcherHarness(sim, clock, { searches, catalog });
    const before = await readSimulatorCounts(sim);
    for (let check = 0; check < 12; check += 1) {
      const report = await watcher.checkNow();
      expect(report).toMatchObject({ requests: 1, failures: 0, skipped: 0 });
      for (const search of searches) {
        expect(watcher.buildInventory(search).last_checked_at).toBe(
          new Date(clock.now()).toISOString(),
        );
      }
      clock.advance(FIVE_MINUTES);
    }
    const after = await readSimulatorCounts(sim);
    expect(after.pickup_message - before.pickup_message).toBe(12);
    expect(after.fulfillment_messages).toBe(before.fulfillment_messages);
    expect(after.answered_541).toBe(before.answered_541);
    // One location seed carries all three product types; from the second check on, the
    // control part rides along too.
    expect(lines.every((line) => line.result === 'ok' && line.where?.startsWith('near '))).toBe(
      true,
    );
    expect(new Set(lines.at(-1)?.productIds)).toEqual(new Set(['iphone16', 'airpods', 'homepod']));
  });

  it('leaves what the budget cannot pay for to the next check, stalest first', async () => {
    const searches = [
      makeSearch('iphone16', 'R095'),
      makeSearch('iphone16', 'R035'),
      makeSearch('iphone16', 'R075'),
    ];
    const { watcher, lines } = createWatcherHarness(sim, clock, {
      searches,
      catalog,
      // Two requests back to back, then one a minute.
      pacing: { burst: 2, ratePerMinute: 1, minGapMs: 0 },
    });
    const first = await watcher.checkNow();
    expect(first).toMatchObject({ requests: 2, skipped: 1 });
    expect(lines.at(-1)).toMatchObject({ result: 'skipped' });
    expect(lines.at(-1)?.detail).toMatch(/budget/);
    const unchecked = searches.filter(
      (search) => watcher.buildInventory(search).last_checked_at === null,
    );
    expect(unchecked).toHaveLength(1);
    clock.advance(FIVE_MINUTES);
    await watcher.checkNow();
    expect(watcher.buildInventory(unchecked[0]).last_checked_at).toBe(
      new Date(clock.now()).toISOString(),
    );
  });

  it('a new run finds what the last one spent: the budget outlives the run', async () => {
    const searches = [makeSearch('iphone16', 'R095'), makeSearch('iphone16', 'R035')];
    // The machine's budget, as the hosts keep it in a file that survives a restart.
    const budgetStore = createMemoryBudgetStore();
    const pacing = { burst: 3, ratePerMinute: 1, minGapMs: 0 };
    const earlier = createWatcherHarness(sim, clock, { searches, catalog, budgetStore, pacing });
    expect((await earlier.watcher.checkNow()).requests).toBe(2);
    // A run started at once (the terminal's --once again, an app restart) has one request left.
    const next = createWatcherHarness(sim, clock, {
      searches,
      catalog,
      state: earlier.getSaved(),
      budgetStore,
      pacing,
    });
    expect(await next.watcher.checkNow()).toMatchObject({ requests: 1, skipped: 1 });
    // Three minutes on, the bucket has refilled as much.
    clock.advance(3 * 60_000);
    const later = createWatcherHarness(sim, clock, {
      searches,
      catalog,
      state: next.getSaved(),
      budgetStore,
      pacing,
    });
    expect((await later.watcher.checkNow()).requests).toBe(2);
  });

  it('counts the request times a state saved by an earlier version carries, once', async () => {
    const searches = [makeSearch('iphone16', 'R095'), makeSearch('iphone16', 'R035')];
    const old = createEmptyWatchState();
    old.recent_requests = [clock.now() - 11 * 60_000, clock.now() - 60_000, clock.now() - 30_000];
    const budgetStore = createMemoryBudgetStore();
    const pacing = { burst: 3, ratePerMinute: 1, minGapMs: 0 };
    const { watcher, getSaved } = createWatcherHarness(sim, clock, {
      searches,
      catalog,
      state: old,
      budgetStore,
      pacing,
    });
    // Two of them are within Apple's window: one request of the three is left.
    expect(await watcher.checkNow()).toMatchObject({ requests: 1, skipped: 1 });
    expect(getSaved()?.recent_requests).toEqual([]);
  });

  it('does not believe an answer whose control part is unavailable at every store', async () => {
    const search = makeSearch('iphone16pro', 'R095');
    const [part] = search.preferred_parts;
    const [control] = catalog.listModels('airpodspro', 'US').map((model) => model.part_number);
    const listed = ['R095', ...listNearestStoreIds(catalog, 'R095', 11)];
    // Memory of a while ago: the control part was on most shelves, the model on none.
    const state = createEmptyWatchState();
    const seenAt = clock.now() - 10 * 60_000;
    for (const storeId of listed.slice(0, 5)) {
      state.snapshots[snapshotKey(storeId, control)] = {
        status: 'available',
        changed_at: seenAt,
        observed_at: seenAt,
        quote: null,
      };
    }
    state.snapshots[snapshotKey('R095', part)] = {
      status: 'unavailable',
      changed_at: seenAt,
      observed_at: seenAt,
      quote: null,
    };
    for (const storeId of listed) {
      await sim.control('POST', '/_sim/stock', {
        store_id: storeId,
        part_number: control,
        status: 'unavailable',
      });
    }
    await sim.control('POST', '/_sim/stock', {
      store_id: 'R095',
      part_number: part,
      status: 'available',
    });
    const { watcher, alerts, getSaved } = createWatcherHarness(sim, clock, {
      searches: [search],
      catalog,
      state,
    });
    const report = await watcher.checkNow();
    expect(report).toMatchObject({ requests: 1, failures: 1 });
    expect(alerts).toHaveLength(0);
    expect(getSaved()?.snapshots[snapshotKey('R095', part)]?.status).toBe('unavailable');
    expect(watcher.getStatus().failure_message).toMatch(/not believed/);
    expect(watcher.buildInventory(search).is_stale).toBe(true);
    // Once the control part is on a shelf again, the answer is believed.
    await sim.control('POST', '/_sim/stock', {
      store_id: 'R032',
      part_number: control,
      status: 'available',
    });
    clock.advance(6 * FIVE_MINUTES);
    await watcher.checkNow();
    expect(alerts.map((alert) => alert.partNumber)).toContain(part);
    expect(watcher.getStatus().is_failing).toBe(false);
  });

  it('finds a part Apple refuses (left out, then empty content alone), leaves it out and files the rest', async () => {
    const refused = findForeignPart('GB', 'US');
    const withRefused = createDesktopCatalog({
      models: [
        ...PRODUCT_MODEL_SEEDS,
        {
          product_id: 'iphone16',
          country_code: 'US',
          part_number: refused,
          display_name: 'A model not sold in the US',
        },
      ],
    });
    const search = makeSearch('iphone16', 'R095');
    const { watcher, getSaved, lines } = createWatcherHarness(sim, clock, {
      searches: [search],
      catalog: withRefused,
    });
    const first = await watcher.checkNow();
    expect(first.requests).toBe(2);
    expect(Object.values(getSaved()?.invalid_parts ?? {})).toMatchObject([
      { country_code: 'US', part_number: refused, product_id: 'iphone16' },
    ]);
    expect(lines.at(-1)?.detail).toContain(refused);
    const filed = catalog
      .listModels('iphone16', 'US')
      .filter((model) => getSaved()?.snapshots[snapshotKey('R095', model.part_number)]);
    expect(filed).toHaveLength(catalog.listModels('iphone16', 'US').length);
    clock.advance(FIVE_MINUTES);
    expect((await watcher.checkNow()).requests).toBe(1);
  });

  it('loads a state saved before the Mac counted as one address, keeping its cool-down', () => {
    const until = clock.now() + 10 * 60_000;
    const old = {
      version: 1,
      snapshots: {},
      targets: {},
      neighbours: {},
      alerts: {},
      events: [],
      cool_downs: { 'localhost:4010': until },
      last_check_at: null,
      failing_since: null,
      failure_message: null,
      next_event_id: 1,
    };
    const state = parseWatchState(old);
    expect(state.address).toEqual({
      cool_down_until: until,
      consecutive_blocks: 0,
      last_block_at: null,
    });
    expect(state).toMatchObject({ seeds: {}, endpoints: {}, invalid_parts: {}, cool_downs: {} });
    const { watcher } = createWatcherHarness(sim, clock, {
      searches: [makeSearch('iphone16pro', 'R095')],
      catalog,
      state: old,
    });
    expect(watcher.getStatus().cool_down_until).toBe(new Date(until).toISOString());
  });
});

describe('the local watch loop when pickup-message stops answering', () => {
  it('switches the country to fulfillment-messages and says why', async () => {
    const sim = await startSimulatorHarness({
      behaviour: { pickupMessage: 'dead', fulfillmentMessages: 'alive', blockAfterRequests: 0 },
    });
    try {
      const clock = createSharedClock(sim, START_MS);
      const { watcher, getSaved } = createWatcherHarness(sim, clock, {
        searches: [makeSearch('iphone16pro', 'R095')],
        catalog,
      });
      await watcher.checkNow();
      expect(watcher.getStatus().cool_down_until).not.toBeNull();
      clock.advance(6 * 60_000);
      await watcher.checkNow();
      expect(getSaved()?.endpoints.US).toMatchObject({ shape: 'fulfillment-messages' });
      expect(getSaved()?.endpoints.US?.reason).toMatch(/pickup-message answered HTTP 541/);
      clock.advance(FIVE_MINUTES);
      const before = await readSimulatorCounts(sim);
      expect((await watcher.checkNow()).requests).toBe(1);
      const after = await readSimulatorCounts(sim);
      expect(after.fulfillment_messages).toBe(before.fulfillment_messages + 1);
      expect(watcher.getStatus().is_failing).toBe(false);
    } finally {
      await sim.close();
    }
  });
});
