// The local watch loop (the Mac, `shelfwatch watch`) reads Apple's answers by meaning, as the
// server does, against the simulator: parts past Apple's 20 are asked again, not refused; a
// part Apple does not sell is found through empty content without backing anything off; a
// part ineligible at every store of two answers is retired in the loop's memory; Apple Watch
// searches are not asked.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/index.ts';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import type { LocalSearch } from '#shared/desktop/local-search.ts';
import {
  createEmptyWatchState,
  parseWatchState,
  type LocalWatchState,
} from '#shared/watch/local/index.ts';
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
const FIVE_MINUTES = 5 * 60_000;
let nextId = 1;

/** A search with the given models preferred (none by default), nearby stores off. */
function makeSearch(productType: string, storeId: string, preferred: string[] = []): LocalSearch {
  const id = String(nextId++).padStart(12, '0');
  return {
    id: `00000000-0000-4000-9000-${id}`,
    product_type: productType,
    store_id: storeId,
    include_nearby_store_results: false,
    show_results_only_for_preferred_models: false,
    max_distance_miles: null,
    preferred_parts: preferred,
    created_at: '2026-01-15T12:00:00.000Z',
  };
}

function listParts(productType: string): string[] {
  return catalog.listModels(productType, 'US').map((model) => model.part_number);
}

describe('the local watch loop reads Apple’s answers by meaning', () => {
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
    clock.advance(24 * 60 * 60_000);
  });

  it('asks again the parts Apple cut past the 20th of a 25-part request, and refuses none', async () => {
    const types = ['iphone18pro', 'iphoneduo', 'applepencilusbcadapter'];
    expect(types.flatMap(listParts)).toHaveLength(25);
    const { watcher, getSaved, lines } = createWatcherHarness(sim, clock, {
      searches: types.map((type) => makeSearch(type, 'R095')),
      catalog,
      partsPerRequest: 25,
    });
    const report = await watcher.checkNow();
    expect(report).toMatchObject({ requests: 2, failures: 0 });
    expect(getSaved()?.invalid_parts).toEqual({});
    for (const part of types.flatMap(listParts)) {
      expect(getSaved()?.snapshots[`R095|${part}`]).toBeDefined();
    }
    expect(lines.at(-1)?.detail).not.toMatch(/refused/);
  });

  it('finds a part Apple does not sell through empty content, with no failure and no back-off', async () => {
    const withGhost = createDesktopCatalog({
      models: [
        ...PRODUCT_MODEL_SEEDS,
        {
          product_id: 'applepencilusbcadapter',
          country_code: 'US',
          part_number: 'ZZ999LL/A',
          display_name: 'A model not sold in the US',
        },
      ],
    });
    const { watcher, getSaved } = createWatcherHarness(sim, clock, {
      searches: [makeSearch('applepencilusbcadapter', 'R095')],
      catalog: withGhost,
    });
    const report = await watcher.checkNow();
    // Left out beside the good part, then asked alone: empty content.
    expect(report).toMatchObject({ requests: 2, failures: 0 });
    const refused = Object.values(getSaved()?.invalid_parts ?? {});
    expect(refused.map((held) => held.part_number)).toEqual(['ZZ999LL/A']);
    expect(refused[0]?.reason).toMatch(/empty content/);
    const targets = Object.values(getSaved()?.targets ?? {});
    expect(targets.every((target) => target.consecutive_failures === 0)).toBe(true);
    expect(getSaved()?.address.cool_down_until).toBeNull();
  });

  it('retires a part ineligible at every store of two answers in a row, and asks for it no more', async () => {
    const [part] = listParts('applepencilusbcadapter');
    for (const store of catalog.listCountryStores('US')) {
      await sim.control('POST', '/_sim/stock', {
        store_id: store.store_id,
        part_number: part,
        status: 'ineligible',
      });
    }
    const { watcher, getSaved, alerts } = createWatcherHarness(sim, clock, {
      searches: [makeSearch('applepencilusbcadapter', 'R095', [part])],
      catalog,
    });
    await watcher.checkNow();
    expect(getSaved()?.retired_parts[`US|${part}`]).toMatchObject({ retired_at: null });
    clock.advance(FIVE_MINUTES);
    await watcher.checkNow();
    expect(getSaved()?.retired_parts[`US|${part}`]).toMatchObject({
      ineligible_answers: 2,
      retired_at: clock.now(),
    });

    await sim.control('POST', '/_sim/stock', {
      store_id: 'R095',
      part_number: part,
      status: 'available',
    });
    const before = await readSimulatorCounts(sim);
    clock.advance(FIVE_MINUTES);
    expect(await watcher.checkNow()).toMatchObject({ requests: 0 });
    expect((await readSimulatorCounts(sim)).count).toBe(before.count);
    expect(alerts).toEqual([]);
  });

  it('loads a state saved before retirement was kept', () => {
    const older: Partial<LocalWatchState> = createEmptyWatchState();
    delete older.retired_parts;
    expect(parseWatchState(older)).toEqual(createEmptyWatchState());
  });

  it('does not ask Apple Watch types: no request, nothing shown unavailable', async () => {
    const search = makeSearch('applewatchultra', 'R095');
    const { watcher, getSaved } = createWatcherHarness(sim, clock, { searches: [search], catalog });
    const before = await readSimulatorCounts(sim);
    expect(await watcher.checkNow()).toMatchObject({ requests: 0, failures: 0 });
    expect((await readSimulatorCounts(sim)).count).toBe(before.count);
    expect(getSaved()?.targets ?? {}).toEqual({});
    expect(watcher.buildInventory(search)).toMatchObject({ stores: [], last_checked_at: null });
  });
});
