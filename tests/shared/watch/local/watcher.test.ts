// The local watch loop against the upstream simulator over real HTTP (its per-address block
// off: request-packing.test.ts runs with it on), with one hand-moved clock for both: the
// timers are recorded, not waited for.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import type { LocalSearch } from '#shared/desktop/local-search.ts';
import type { LocalWatchSettings } from '#shared/watch/local/index.ts';
import {
  START_MS,
  startSimulatorHarness,
  type SimulatorHarness,
} from '#tests/server/simulator/support.ts';
import {
  createSharedClock,
  createWatcherHarness,
  readSimulatorCounts,
  type SharedClock,
} from './support.ts';

const catalog = createDesktopCatalog();
const [PART, OTHER_PART] = catalog.listModels('iphone16pro', 'US');

/** A local search at Fifth Avenue preferring one model. */
function makeSearch(overrides: Partial<LocalSearch> = {}): LocalSearch {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    product_type: 'iphone16pro',
    store_id: 'R095',
    include_nearby_store_results: false,
    show_results_only_for_preferred_models: false,
    max_distance_miles: null,
    preferred_parts: [PART.part_number],
    created_at: '2026-01-15T12:00:00.000Z',
    ...overrides,
  };
}

describe('the local watch loop', () => {
  let sim: SimulatorHarness;
  let clock: SharedClock;
  const advance = (ms: number) => clock.advance(ms);

  beforeAll(async () => {
    sim = await startSimulatorHarness({ behaviour: { blockAfterRequests: 0 } });
    clock = createSharedClock(sim, START_MS);
  });
  afterAll(async () => {
    await sim?.close();
  });
  afterEach(async () => {
    await sim.control('DELETE', '/_sim/stock');
    await sim.control('DELETE', '/_sim/fault');
  });

  /** A watcher over the simulator with recorded timers, alerts and saved state. */
  const createHarness = (options: {
    searches: LocalSearch[];
    settings?: Partial<LocalWatchSettings>;
    state?: unknown;
  }) => createWatcherHarness(sim, clock, { ...options, catalog });

  const setShelf = async (status: string, part = PART.part_number, store = 'R095') => {
    const answer = await sim.control('POST', '/_sim/stock', {
      store_id: store,
      part_number: part,
      status,
    });
    expect(answer.status).toBe(200);
  };
  const readCounts = () => readSimulatorCounts(sim);
  const countRequests = async () => (await readCounts()).count;

  it('notifies once per change, not again while the shelf stays stocked or flaps', async () => {
    const { watcher, alerts } = createHarness({ searches: [makeSearch()] });
    await setShelf('unavailable');
    await watcher.checkNow();
    expect(alerts).toHaveLength(0);
    await setShelf('available');
    advance(60_000);
    await watcher.checkNow();
    expect(alerts.map((alert) => alert.partNumber)).toEqual([PART.part_number]);
    expect(alerts[0]).toMatchObject({
      storeId: 'R095',
      storeName: 'Fifth Avenue',
      distanceMiles: null,
    });
    advance(60_000);
    await watcher.checkNow();
    // A sell-out and restock within the quiet window stays quiet.
    await setShelf('unavailable');
    advance(60_000);
    await watcher.checkNow();
    await setShelf('available');
    advance(60_000);
    await watcher.checkNow();
    expect(alerts).toHaveLength(1);
    // Sold out for longer than the window: a real restock alerts again.
    await setShelf('unavailable');
    advance(60_000);
    await watcher.checkNow();
    advance(31 * 60_000);
    await setShelf('available');
    await watcher.checkNow();
    expect(alerts).toHaveLength(2);
  });

  it.each(['541', 'html', 'malformed'])(
    'raises nothing on a %s answer and shows failing checks, keeping what it knew',
    async (kind) => {
      const { watcher, alerts } = createHarness({ searches: [makeSearch()] });
      await setShelf('unavailable');
      advance(60 * 60_000);
      await watcher.checkNow();
      const before = watcher.buildInventory(makeSearch());
      await sim.control('POST', '/_sim/fault', { kind, seconds: 3600 });
      await setShelf('available');
      advance(10 * 60_000);
      await watcher.checkNow();
      expect(alerts).toHaveLength(0);
      const status = watcher.getStatus();
      expect(status.is_failing).toBe(true);
      expect(status.failure_message).toMatch(/Apple/);
      expect(watcher.buildInventory(makeSearch()).stores).toEqual(before.stores);
    },
  );

  it('stops asking during a cool-down, tries the other shape once, then goes back', async () => {
    const { watcher } = createHarness({ searches: [makeSearch()] });
    advance(120 * 60_000);
    await sim.control('POST', '/_sim/fault', { kind: '541', seconds: 60 });
    await watcher.checkNow();
    // Five minutes after a first 541, as the public reports pace themselves.
    expect(watcher.getStatus().cool_down_until).toBe(
      new Date(clock.now() + 5 * 60_000).toISOString(),
    );
    const during = await readCounts();
    advance(4 * 60_000);
    expect((await watcher.checkNow()).requests).toBe(0);
    expect((await readCounts()).count).toBe(during.count);
    // After it, a 541 on the shape in use sends the next request to the other shape; it is
    // dead too, so the address was blocked: another cool-down without doubling, no switch.
    advance(2 * 60_000);
    await watcher.checkNow();
    const probed = await readCounts();
    expect(probed.fulfillment_messages).toBe(during.fulfillment_messages + 1);
    expect(watcher.getStatus().is_failing).toBe(true);
    advance(6 * 60_000);
    const report = await watcher.checkNow();
    expect(report.requests).toBe(1);
    expect((await readCounts()).pickup_message).toBe(probed.pickup_message + 1);
    expect(watcher.getStatus()).toMatchObject({ is_failing: false, cool_down_until: null });
  });

  it('doubles the cool-down when Apple keeps refusing, up to an hour', async () => {
    const { watcher, getSaved } = createHarness({ searches: [makeSearch()] });
    advance(600 * 60_000);
    await sim.control('POST', '/_sim/fault', { kind: '541', seconds: 6 * 3600 });
    const coolDowns: number[] = [];
    for (let check = 0; check < 8; check += 1) {
      const before = clock.now();
      await watcher.checkNow();
      const until = getSaved()?.address.cool_down_until ?? before;
      if (until > before) coolDowns.push(until - before);
      // The bucket restarts with the token it had: one more minute brings the next.
      advance(Math.max(until - before, 0) + 60_000);
    }
    // 5 min; the other shape probed (5 min, no doubling); 10, 20, 40; the hourly probe of
    // the other shape (40 again); then capped at an hour.
    expect(coolDowns.map((ms) => ms / 60_000)).toEqual([5, 5, 10, 20, 40, 40, 60, 60]);
  });

  it('makes one request for two searches of the same store and product', async () => {
    const { watcher } = createHarness({
      searches: [
        makeSearch(),
        makeSearch({
          id: '22222222-2222-4222-8222-222222222222',
          preferred_parts: [OTHER_PART.part_number],
        }),
      ],
    });
    advance(240 * 60_000);
    const before = await countRequests();
    const report = await watcher.checkNow();
    expect(report.requests).toBe(1);
    expect(await countRequests()).toBe(before + 1);
  });

  it('checks at once on resume after sleep, and not while paused', async () => {
    const { watcher } = createHarness({ searches: [makeSearch()] });
    watcher.start();
    advance(300 * 60_000);
    watcher.pause();
    expect(watcher.getStatus()).toMatchObject({ state: 'paused', next_check_at: null });
    const before = await countRequests();
    expect((await watcher.checkNow()).requests).toBe(0);
    const report = await watcher.resume();
    expect(report.requests).toBe(1);
    expect(await countRequests()).toBe(before + 1);
    watcher.stop();
  });

  it('never schedules checks closer than a minute apart', async () => {
    const { watcher, timers, settings } = createHarness({
      searches: [makeSearch()],
      settings: { intervalMinutes: 0 },
    });
    watcher.start();
    advance(360 * 60_000);
    await watcher.checkNow();
    expect(timers.at(-1)).toBe(60_000);
    settings.intervalMinutes = 0.2;
    watcher.reschedule();
    expect(timers.at(-1)).toBeGreaterThanOrEqual(0);
    await watcher.checkNow();
    expect(timers.at(-1)).toBe(60_000);
    watcher.stop();
  });

  it('records but does not notify with notifications off', async () => {
    const { watcher, alerts } = createHarness({
      searches: [makeSearch()],
      settings: { isNotifying: false },
    });
    await setShelf('unavailable');
    advance(420 * 60_000);
    await watcher.checkNow();
    await setShelf('available');
    advance(60_000);
    const report = await watcher.checkNow();
    expect(alerts).toHaveLength(0);
    expect(report.alerts).toHaveLength(1);
  });

  it('shows nearby stores within the distance limit and the history of changes', async () => {
    const search = makeSearch({ include_nearby_store_results: true, max_distance_miles: 5 });
    const { watcher } = createHarness({ searches: [search] });
    await setShelf('unavailable');
    advance(480 * 60_000);
    await watcher.checkNow();
    await setShelf('available');
    advance(60_000);
    await watcher.checkNow();
    const inventory = watcher.buildInventory(search);
    expect(inventory.stores[0]).toMatchObject({ store_id: 'R095', distance_miles: null });
    expect(inventory.stores[0].available_models).toContainEqual({ ...PART, is_preferred: true });
    for (const store of inventory.stores.slice(1)) {
      expect(store.distance_miles).toBeLessThanOrEqual(5);
      expect(store.available_models.length).toBeGreaterThan(0);
    }
    const history = watcher.buildHistory(search, 7);
    expect(history.daily).toHaveLength(7);
    expect(history.events[0]).toMatchObject({
      store_id: 'R095',
      part_number: PART.part_number,
      to_status: 'available',
    });
  });

  it('starts fresh from unreadable saved state instead of crashing', async () => {
    const { watcher, getSaved } = createHarness({
      searches: [makeSearch()],
      state: { version: 9, junk: true },
    });
    advance(540 * 60_000);
    const report = await watcher.checkNow();
    expect(report.requests).toBe(1);
    expect(getSaved()?.version).toBe(1);
  });
});
