import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDirectorySyncSchedule } from '#server/catalog/directory-schedule.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { listCountries } from '#server/db/repositories/catalog-repository.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startSimulatorHarness, type SimulatorHarness } from '#tests/server/simulator/support.ts';

// The store directory sync on the catalog schedule: it reads every country's directory when
// the last read is older than the interval, reports Thailand's 404 without calling it an
// error, and a second process starting within the interval leaves it.

describe('the store directory sync schedule', () => {
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

  const readSyncs = () => testDb.db.selectFrom('store_directory_syncs').selectAll().execute();

  it('reads every country when due, and not again before the interval', async () => {
    const logged: string[] = [];
    const log = {
      info: (_details: Record<string, unknown>, message: string) => logged.push(message),
      error: (_details: Record<string, unknown>, message: string) => logged.push(message),
    };
    const settings = { mode: 'on' as const, intervalMs: 3_600_000, pageIntervalMs: 0 };
    const countries = (await listCountries(testDb.db)).length;
    const stop = startDirectorySyncSchedule({
      db: testDb.db,
      baseUrl: simulator.simulator.url,
      settings,
      log,
      firstCheckAfterMs: 10,
    });
    await expect.poll(async () => logged.length, { timeout: 20_000 }).toBe(1);
    await stop();
    // Every country read; a 404 (Thailand, where the catalog has it) is reported, not an error.
    expect(logged).toEqual(['store directory sync finished']);
    const rows = await readSyncs();
    expect(rows).toHaveLength(countries);
    expect(rows.every((row) => row.outcome === 'read' || row.outcome === 'not_listed')).toBe(true);
    const firstReadAt = rows[0].synced_at.getTime();

    const again = startDirectorySyncSchedule({
      db: testDb.db,
      baseUrl: simulator.simulator.url,
      settings,
      log,
      firstCheckAfterMs: 10,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await again();
    expect(logged).toHaveLength(1);
    expect((await readSyncs())[0].synced_at.getTime()).toBe(firstReadAt);
  }, 30_000);
});
