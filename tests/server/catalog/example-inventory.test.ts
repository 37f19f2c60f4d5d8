import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeExampleInventory } from '#server/catalog/example-inventory.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { loadConfig } from '#server/config/app-config.ts';
import { ensureDemoAccount } from '#server/searches/demo-account.ts';
import { startUpstreamSimulator, type RunningUpstreamSimulator } from '#server/simulator/index.ts';
import { buildSimCatalog } from '#server/simulator/sim-catalog.ts';
import { getScheduledStatus } from '#server/simulator/stock-schedule.ts';
import {
  declareEgressPool,
  runWatchCycle,
  type EgressPool,
  type PollerDeps,
} from '#server/watch/index.ts';
import {
  COUNTRY_SEEDS,
  PRODUCT_MODEL_SEEDS,
  STORE_SEEDS,
  isModelSold,
} from '#shared/catalog/index.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

// A fresh `npm start`: the demo account, the simulator and the watcher with the shipped
// defaults (seed, stock schedule, Apple's block, one request a minute in bursts of 20, a cycle
// a minute), on a clock the test moves, so "within two minutes" costs no wall-clock wait.

const FIRST_START_MS = Date.UTC(2026, 10, 28, 9, 0, 0);
const TWO_MINUTES_MS = 120_000;

describe('example inventory on a fresh start', () => {
  let database: TestDatabase;
  let simulator: RunningUpstreamSimulator;
  let clock = FIRST_START_MS;
  let deps: PollerDeps;

  beforeAll(async () => {
    const config = loadConfig({ SHELFWATCH_DATA_DIR: '/nonexistent-shelfwatch-test' });
    database = await createTestDatabase();
    await seedCatalog(database.db);
    await ensureDemoAccount(database.db, { issuer: 'http://127.0.0.1:1/', password: undefined });
    const now = (): number => clock;
    simulator = await startUpstreamSimulator({
      port: await getFreePort(),
      seed: config.simulator.seed,
      stores: STORE_SEEDS,
      models: PRODUCT_MODEL_SEEDS,
      countries: COUNTRY_SEEDS,
      now,
      ...config.simulator.behaviour,
    });
    const pool: EgressPool = {
      addresses: [
        {
          label: 'direct test',
          kind: 'direct',
          fetch: (url, init) => fetch(url, init),
          close: () => Promise.resolve(),
        },
      ],
      ratePerMinute: config.watch.upstreamRatePerMinute,
      burst: config.watch.upstreamBurst,
      baseCoolDownMs: config.upstream.coolDownSeconds * 1000,
      maxCoolDownMs: config.upstream.maxCoolDownSeconds * 1000,
    };
    await declareEgressPool(database.db, pool, clock);
    deps = {
      db: database.db,
      now,
      random: () => 0.5,
      // Waiting for a token moves the test's clock, as it would move the real one.
      sleep: (ms) => {
        clock += ms;
        return Promise.resolve();
      },
      pool,
      baseUrl: simulator.url,
      shape: config.upstream.shape,
      intervalMs: config.watch.pollIntervalSeconds * 1000,
      quietWindowMs: config.alerts.quietWindowMinutes * 60_000,
      partsPerRequest: config.upstream.partsPerRequest,
    };
  });

  afterAll(async () => {
    await simulator.close();
    await database.drop();
  });

  it('shows stock of the models on sale within two minutes of the first start', async () => {
    // The watcher's first cycle starts with the process; later ones follow every interval.
    let inventory = await computeExampleInventory(database.db);
    expect(inventory).toEqual([]);
    while (inventory.length === 0 && clock - FIRST_START_MS <= TWO_MINUTES_MS) {
      await runWatchCycle(deps);
      inventory = await computeExampleInventory(database.db);
      if (inventory.length === 0) clock += deps.intervalMs;
    }
    expect(clock - FIRST_START_MS).toBeLessThanOrEqual(TWO_MINUTES_MS);
    const shown = inventory.map((entry) => entry.product_type);
    expect(shown.some((type) => type === 'iphone18pro' || type === 'iphoneduo')).toBe(true);
    for (const entry of inventory) {
      expect(entry.inventory.length).toBeGreaterThan(0);
      for (const store of entry.inventory) expect(store.product_count).toBeGreaterThan(0);
    }
  });

  it('has some part of the demo searches in stock at every minute of a day by the default schedule', () => {
    const seed = loadConfig({ SHELFWATCH_DATA_DIR: '/nonexistent-shelfwatch-test' }).simulator.seed;
    const catalog = buildSimCatalog(STORE_SEEDS, PRODUCT_MODEL_SEEDS, COUNTRY_SEEDS);
    // What one answer about each demo search lists: its store and the nearest others.
    const asked = [
      { storeId: 'R095', productId: 'iphone18pro' },
      { storeId: 'R075', productId: 'iphoneduo' },
    ].map(({ storeId, productId }) => {
      const origin = catalog.findAnyStore(storeId);
      if (origin === undefined) throw new Error(`no store ${storeId}`);
      return {
        stores: catalog.listNearestStores(origin, 12).map((entry) => entry.store.store_id),
        parts: PRODUCT_MODEL_SEEDS.filter(
          (m) => m.product_id === productId && m.country_code === 'US' && isModelSold(m),
        ).map((m) => m.part_number),
      };
    });
    const emptyMinutes: string[] = [];
    for (let minute = 0; minute < 24 * 60; minute += 1) {
      const at = FIRST_START_MS + minute * 60_000;
      const isStocked = asked.some(({ stores, parts }) =>
        stores.some((store) =>
          parts.some((part) => getScheduledStatus(seed, store, part, at) === 'available'),
        ),
      );
      if (!isStocked) emptyMinutes.push(new Date(at).toISOString());
    }
    expect(emptyMinutes).toEqual([]);
  });
});
