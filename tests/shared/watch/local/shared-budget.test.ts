// The machine's budget at Apple as the local watchers share it: a burst of 8, 3 s between two
// requests, one budget for the app and every terminal watcher, kept across restarts. Against
// the simulator over real HTTP, blocking an address after 15 quick requests, the low end of
// what checkers report (../shared/reference/apple/README.md, "Bursts"). The budget is kept in
// memory here; tests/server/terminal-watch and tests/electron/app run it over the real file.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import type { LocalSearch } from '#shared/desktop/local-search.ts';
import { listNearestStoreIds, LOCAL_PACING } from '#shared/watch/local/index.ts';
import {
  START_MS,
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
const PACING = {
  burst: LOCAL_PACING.burst,
  ratePerMinute: LOCAL_PACING.ratePerMinute,
  minGapMs: LOCAL_PACING.minGapSeconds * 1000,
};
let nextId = 1;

/** Stores none of whose location answers lists another: each needs a request of its own. */
function pickDistantStores(count: number): string[] {
  const picked: string[] = [];
  const isListedNear = (storeId: string, other: string) =>
    listNearestStoreIds(catalog, storeId, 12).includes(other);
  for (const { store_id: storeId } of catalog.listStores()) {
    const isApart = picked.every(
      (other) => !isListedNear(storeId, other) && !isListedNear(other, storeId),
    );
    if (isApart && catalog.isSoldIn('iphone16', catalog.findStore(storeId)!.country_code)) {
      picked.push(storeId);
    }
    if (picked.length === count) return picked;
  }
  throw new Error(`fewer than ${count} stores apart`);
}

/** A search for one model at the store, nearby stores off. */
function makeSearch(storeId: string): LocalSearch {
  const country = catalog.findStore(storeId)!.country_code;
  return {
    id: `00000000-0000-4000-8000-${String(nextId++).padStart(12, '0')}`,
    product_type: 'iphone16',
    store_id: storeId,
    include_nearby_store_results: false,
    show_results_only_for_preferred_models: false,
    max_distance_miles: null,
    preferred_parts: [catalog.listModels('iphone16', country)[0].part_number],
    created_at: '2026-01-15T12:00:00.000Z',
  };
}

/** The gaps between consecutive request times. */
function listGaps(times: readonly number[]): number[] {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.slice(1).map((at, index) => at - sorted[index]);
}

describe("the machine's budget at Apple, shared by its local watchers", () => {
  let sim: SimulatorHarness;
  let clock: SharedClock;
  const stores = pickDistantStores(10);

  beforeAll(async () => {
    sim = await startSimulatorHarness({ seed: 5, behaviour: { blockAfterRequests: 15 } });
    clock = createSharedClock(sim, START_MS);
  });
  afterAll(async () => {
    await sim?.close();
  });
  afterEach(async () => {
    await sim.control('DELETE', '/_sim/fault');
    await sim.control('DELETE', '/_sim/blocks');
    clock.advance(24 * 60 * 60_000);
  });

  it('sends no more than 8 requests for ten searches at first run, 3 s apart', async () => {
    const searches = stores.slice(0, 10).map(makeSearch);
    const { watcher, sentAt, lines } = createWatcherHarness(sim, clock, {
      searches,
      catalog,
      pacing: PACING,
    });
    const before = await readSimulatorCounts(sim);
    const report = await watcher.checkNow();
    expect(report).toMatchObject({ requests: 8, answered: 8, skipped: 2 });
    const after = await readSimulatorCounts(sim);
    expect(after.count - before.count).toBe(8);
    expect(after.answered_541).toBe(before.answered_541);
    expect(Math.min(...listGaps(sentAt))).toBeGreaterThanOrEqual(3000);
    expect(lines.at(-1)?.detail).toMatch(/budget/);
    const unchecked = searches.filter(
      (search) => watcher.buildInventory(search).last_checked_at === null,
    );
    expect(unchecked).toHaveLength(2);
    // Five minutes bring five requests, the two searches left waiting first.
    clock.advance(5 * 60_000);
    expect((await watcher.checkNow()).requests).toBe(5);
    for (const search of unchecked) {
      expect(watcher.buildInventory(search).last_checked_at).not.toBeNull();
    }
  });

  it('keeps two watchers sharing the budget within one burst together', async () => {
    const budgetStore = createMemoryBudgetStore();
    const app = createWatcherHarness(sim, clock, {
      searches: stores.slice(0, 5).map(makeSearch),
      catalog,
      pacing: PACING,
      budgetStore,
    });
    const terminal = createWatcherHarness(sim, clock, {
      searches: stores.slice(5, 10).map(makeSearch),
      catalog,
      pacing: PACING,
      budgetStore,
    });
    const before = await readSimulatorCounts(sim);
    const reports = await Promise.all([app.watcher.checkNow(), terminal.watcher.checkNow()]);
    expect(reports[0].requests + reports[1].requests).toBe(8);
    expect(reports[0].skipped + reports[1].skipped).toBe(2);
    expect((await readSimulatorCounts(sim)).count - before.count).toBe(8);
  });

  it('keeps the count across a restart within the window', async () => {
    const budgetStore = createMemoryBudgetStore();
    const searches = stores.slice(0, 10).map(makeSearch);
    const first = createWatcherHarness(sim, clock, {
      searches,
      catalog,
      pacing: PACING,
      budgetStore,
    });
    expect((await first.watcher.checkNow()).requests).toBe(8);
    // Quit and start again at once, with what the budget file kept.
    const restarted = createWatcherHarness(sim, clock, {
      searches,
      catalog,
      state: first.getSaved(),
      pacing: PACING,
      budgetStore,
    });
    expect(await restarted.watcher.checkNow()).toMatchObject({ requests: 0 });
    clock.advance(60_000);
    expect((await restarted.watcher.checkNow()).requests).toBe(1);
  });

  it('holds every watcher back while one of them is cooling down after a block', async () => {
    const budgetStore = createMemoryBudgetStore();
    const blocked = createWatcherHarness(sim, clock, {
      searches: [makeSearch(stores[0])],
      catalog,
      pacing: PACING,
      budgetStore,
    });
    await sim.control('POST', '/_sim/fault', { kind: '541', seconds: 60 });
    await blocked.watcher.checkNow();
    const until = blocked.watcher.getStatus().cool_down_until;
    expect(until).not.toBeNull();
    await sim.control('DELETE', '/_sim/fault');
    const other = createWatcherHarness(sim, clock, {
      searches: [makeSearch(stores[1])],
      catalog,
      pacing: PACING,
      budgetStore,
    });
    clock.advance(60_000);
    const before = await readSimulatorCounts(sim);
    expect(await other.watcher.checkNow()).toMatchObject({ requests: 0, skipped: 1 });
    expect((await readSimulatorCounts(sim)).count).toBe(before.count);
    expect(other.watcher.getStatus().cool_down_until).toBe(until);
    expect(other.lines.at(-1)?.detail).toMatch(/cooling down until/);
  });
});
