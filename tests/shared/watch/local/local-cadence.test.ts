// Calm volume of the local loop's notifications (issue 42) against the upstream simulator,
// with one hand-moved clock: restocks at nearby stores wait for the search's cadence, one at
// its own store goes at once, and a held notification leaves by its own timer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import { localSearchSchema, type LocalSearch } from '#shared/desktop/local-search.ts';
import { toSearchView } from '#shared/desktop/search-view.ts';
import {
  createEmptyWatchState,
  findNextRelease,
  parseWatchState,
  type LocalWatchState,
} from '#shared/watch/local/index.ts';
import {
  START_MS,
  startSimulatorHarness,
  type SimulatorHarness,
} from '#tests/server/simulator/support.ts';
import { createSharedClock, createWatcherHarness, type SharedClock } from './support.ts';

const catalog = createDesktopCatalog();
const PARTS = catalog
  .listModels('iphone16pro', 'US')
  .slice(0, 3)
  .map((model) => model.part_number);
const HOME = 'R095';
const MINUTE = 60_000;

/** A search at Fifth Avenue with nearby stores within 5 miles, preferring three models. */
function makeSearch(overrides: Partial<LocalSearch> = {}): LocalSearch {
  return {
    id: '22222222-2222-4222-8222-222222222222',
    product_type: 'iphone16pro',
    store_id: HOME,
    include_nearby_store_results: true,
    show_results_only_for_preferred_models: false,
    max_distance_miles: 5,
    preferred_parts: PARTS,
    created_at: '2026-01-15T12:00:00.000Z',
    ...overrides,
  };
}

describe('calm volume of the local notifications', () => {
  let sim: SimulatorHarness;
  let clock: SharedClock;

  beforeAll(async () => {
    sim = await startSimulatorHarness({ behaviour: { blockAfterRequests: 0 } });
    clock = createSharedClock(sim, START_MS);
  });
  afterAll(async () => {
    await sim?.close();
  });
  afterEach(async () => {
    await sim.control('DELETE', '/_sim/stock');
  });

  const setShelf = async (store: string, part: string, status: string) => {
    const answer = await sim.control('POST', '/_sim/stock', {
      store_id: store,
      part_number: part,
      status,
    });
    expect(answer.status).toBe(200);
  };

  /**
   * A started watcher whose search's models are sold out at its store and every nearby store
   * (so only the restocks a test makes alert); answers the nearby stores, nearest first.
   */
  const startQuietWatcher = async (search: LocalSearch) => {
    clock.advance(120 * MINUTE);
    const harness = createWatcherHarness(sim, clock, { searches: [search], catalog });
    for (const part of PARTS) await setShelf(HOME, part, 'unavailable');
    harness.watcher.start();
    await harness.watcher.checkNow();
    const nearby = (harness.getSaved()?.neighbours[HOME] ?? [])
      .filter((neighbour) => (neighbour.distance_miles ?? Infinity) <= 5)
      .map((neighbour) => neighbour.store_id);
    expect(nearby.length).toBeGreaterThanOrEqual(2);
    for (const store of nearby)
      for (const part of PARTS) await setShelf(store, part, 'unavailable');
    clock.advance(MINUTE);
    await harness.watcher.checkNow();
    expect(harness.notifications).toEqual([]);
    return { ...harness, nearby };
  };

  /** Restocks one model at one store, a minute or more later, and checks. */
  const restock = async (
    harness: Awaited<ReturnType<typeof startQuietWatcher>>,
    store: string,
    part: string,
    afterMs = 2 * MINUTE,
  ) => {
    await setShelf(store, part, 'available');
    clock.advance(afterMs);
    await harness.watcher.checkNow();
  };

  /** Moves the clock to the held notification's release and fires its timer. */
  const fireRelease = (harness: Awaited<ReturnType<typeof startQuietWatcher>>) => {
    const releaseAt = findNextRelease(harness.getSaved() as LocalWatchState);
    expect(releaseAt).not.toBeNull();
    const timer = harness.scheduled.find(
      (candidate) => !candidate.isCancelled && candidate.at === releaseAt,
    );
    expect(timer).toBeDefined();
    clock.advance((releaseAt ?? 0) - clock.now());
    timer?.fire();
  };

  const pairsOf = (alerts: readonly { storeId: string; partNumber: string }[]) =>
    alerts.map((alert) => `${alert.storeId}|${alert.partNumber}`);

  it('sends five nearby restocks within ten minutes as one notification at once and one after the cadence', async () => {
    const harness = await startQuietWatcher(makeSearch());
    const [near, far] = harness.nearby;
    const waves = [
      [near, PARTS[0]],
      [near, PARTS[1]],
      [far, PARTS[0]],
      [far, PARTS[1]],
      [near, PARTS[2]],
    ] as const;
    const firstAt = clock.now() + 2 * MINUTE;
    for (const [store, part] of waves) await restock(harness, store, part);
    expect(clock.now() - firstAt).toBeLessThanOrEqual(10 * MINUTE);
    expect(harness.notifications.map(pairsOf)).toEqual([[`${near}|${PARTS[0]}`]]);
    // The held notification leaves by its own timer, 15 minutes after the first one.
    expect(findNextRelease(harness.getSaved() as LocalWatchState)).toBe(firstAt + 15 * MINUTE);
    fireRelease(harness);
    expect(harness.notifications.map(pairsOf)).toEqual([
      [`${near}|${PARTS[0]}`],
      waves.slice(1).map(([store, part]) => `${store}|${part}`),
    ]);
    expect(findNextRelease(harness.getSaved() as LocalWatchState)).toBeNull();
    harness.watcher.stop();
  });

  it('sends a preferred model at the search’s own store at once, with what was held', async () => {
    const harness = await startQuietWatcher(makeSearch());
    const [near] = harness.nearby;
    await restock(harness, near, PARTS[0]);
    await restock(harness, near, PARTS[1]);
    expect(harness.notifications).toHaveLength(1);
    await restock(harness, HOME, PARTS[2]);
    expect(harness.notifications.map(pairsOf)).toEqual([
      [`${near}|${PARTS[0]}`],
      [`${near}|${PARTS[1]}`, `${HOME}|${PARTS[2]}`],
    ]);
    expect(findNextRelease(harness.getSaved() as LocalWatchState)).toBeNull();
    harness.watcher.stop();
  });

  it('drops a held alert whose stock went away before the release, and shows nothing when all went', async () => {
    const harness = await startQuietWatcher(makeSearch());
    const [near, far] = harness.nearby;
    await restock(harness, near, PARTS[0]);
    await restock(harness, near, PARTS[1]);
    await restock(harness, far, PARTS[1]);
    await setShelf(near, PARTS[1], 'unavailable');
    clock.advance(MINUTE);
    await harness.watcher.checkNow();
    fireRelease(harness);
    expect(harness.notifications.map(pairsOf)).toEqual([
      [`${near}|${PARTS[0]}`],
      [`${far}|${PARTS[1]}`],
    ]);
    // Held again, and gone before its time: no notification at all.
    await restock(harness, far, PARTS[2]);
    await setShelf(far, PARTS[2], 'unavailable');
    clock.advance(MINUTE);
    await harness.watcher.checkNow();
    fireRelease(harness);
    expect(harness.notifications).toHaveLength(2);
    expect(findNextRelease(harness.getSaved() as LocalWatchState)).toBeNull();
    harness.watcher.stop();
  });

  it('releases a due held notification with the next check too, and not while paused', async () => {
    const harness = await startQuietWatcher(makeSearch());
    const [near, far] = harness.nearby;
    await restock(harness, near, PARTS[0]);
    await restock(harness, far, PARTS[0]);
    harness.watcher.pause();
    // Pausing cancels the release timer: what is held waits for the next check.
    expect(harness.scheduled.filter((timer) => !timer.isCancelled).map((t) => t.at)).not.toContain(
      findNextRelease(harness.getSaved() as LocalWatchState),
    );
    clock.advance(20 * MINUTE);
    await harness.watcher.resume();
    expect(harness.notifications.map(pairsOf)).toEqual([
      [`${near}|${PARTS[0]}`],
      [`${far}|${PARTS[0]}`],
    ]);
    harness.watcher.stop();
  });

  it('sends every wave at once with a cadence of 0', async () => {
    const harness = await startQuietWatcher(makeSearch({ alert_cadence_minutes: 0 }));
    const [near, far] = harness.nearby;
    await restock(harness, near, PARTS[0], MINUTE);
    await restock(harness, far, PARTS[0], MINUTE);
    await restock(harness, near, PARTS[1], MINUTE);
    expect(harness.notifications.map(pairsOf)).toEqual([
      [`${near}|${PARTS[0]}`],
      [`${far}|${PARTS[0]}`],
      [`${near}|${PARTS[1]}`],
    ]);
    harness.watcher.stop();
  });
});

describe('files saved before calm volume', () => {
  it('loads a watch state without cadence memory and keeps what it knew', () => {
    const old: Record<string, unknown> = {
      ...createEmptyWatchState(),
      alerts: { 'search|R095|PART': 5 },
      last_check_at: 10,
    };
    delete old.cadence;
    const state = parseWatchState(JSON.parse(JSON.stringify(old)));
    expect(state.cadence).toEqual({});
    expect(state.alerts).toEqual({ 'search|R095|PART': 5 });
    expect(state.last_check_at).toBe(10);
  });

  it('loads a local search without a cadence and shows it with the default 15 minutes', () => {
    // makeSearch sets no cadence, as a search saved before calm volume.
    const old = makeSearch();
    expect('alert_cadence_minutes' in old).toBe(false);
    const search = localSearchSchema.parse(old);
    expect(search.alert_cadence_minutes).toBeUndefined();
    expect(toSearchView(search, catalog, null).alert_cadence_minutes).toBe(15);
    expect(localSearchSchema.safeParse({ ...old, alert_cadence_minutes: 1441 }).success).toBe(
      false,
    );
  });
});
