import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelSyncSchedule } from '#server/catalog/sync-schedule.ts';
import { isModelSyncScheduled, loadModelSyncSettings } from '#server/catalog/sync-settings.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startSimulatorHarness, type SimulatorHarness } from '#tests/server/simulator/support.ts';

describe('catalog sync settings', () => {
  it('sync daily, and by default only when watching Apple itself', () => {
    const settings = loadModelSyncSettings({});
    expect(settings).toEqual({ mode: 'auto', intervalMs: 24 * 3_600_000, pageIntervalMs: 3_000 });
    expect(isModelSyncScheduled(settings, 'https://www.apple.com')).toBe(true);
    expect(isModelSyncScheduled(settings, 'http://localhost:4010')).toBe(false);
    expect(isModelSyncScheduled({ ...settings, mode: 'on' }, 'http://localhost:4010')).toBe(true);
    expect(isModelSyncScheduled({ ...settings, mode: 'off' }, 'https://www.apple.com')).toBe(false);
  });

  it('take an hourly interval for launch weeks and refuse nonsense, naming the variable', () => {
    expect(loadModelSyncSettings({ CATALOG_SYNC_INTERVAL_HOURS: '1' }).intervalMs).toBe(3_600_000);
    expect(() => loadModelSyncSettings({ CATALOG_SYNC_INTERVAL_HOURS: '0' })).toThrow(
      /CATALOG_SYNC_INTERVAL_HOURS: must be at least 0.25/,
    );
    expect(() => loadModelSyncSettings({ CATALOG_SYNC: 'sometimes' })).toThrow(
      /CATALOG_SYNC: must be auto, on or off/,
    );
  });
});

describe('the sync schedule', () => {
  let testDb: TestDatabase;
  let simulator: SimulatorHarness;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await seedCatalog(testDb.db);
    simulator = await startSimulatorHarness();
  });
  afterAll(async () => {
    await simulator?.close();
    await testDb?.drop();
  });

  async function countSyncs(): Promise<number> {
    const rows = await testDb.db
      .selectFrom('catalog_changes')
      .select('id')
      .where('kind', '=', 'sync')
      .execute();
    return rows.length;
  }

  it('syncs when the last sync is older than the interval, and not again before it', async () => {
    const logged: string[] = [];
    const log = {
      info: (_details: Record<string, unknown>, message: string) => logged.push(message),
      error: (_details: Record<string, unknown>, message: string) => logged.push(message),
    };
    const stop = startModelSyncSchedule({
      db: testDb.db,
      baseUrl: simulator.simulator.url,
      settings: { mode: 'on', intervalMs: 3_600_000, pageIntervalMs: 0 },
      log,
      firstCheckAfterMs: 10,
    });
    await expect.poll(countSyncs, { timeout: 10_000 }).toBe(1);
    await stop();
    expect(logged).toEqual(['catalog sync from the buy pages finished']);

    // A second server process starting now finds a fresh sync and leaves it.
    const again = startModelSyncSchedule({
      db: testDb.db,
      baseUrl: simulator.simulator.url,
      settings: { mode: 'on', intervalMs: 3_600_000, pageIntervalMs: 0 },
      log,
      firstCheckAfterMs: 10,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await again();
    expect(await countSyncs()).toBe(1);
  }, 30_000);
});
