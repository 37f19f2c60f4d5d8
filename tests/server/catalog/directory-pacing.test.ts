import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { createDirectoryPacer } from '#server/catalog/directory-pacing.ts';
import { syncStoreDirectory } from '#server/catalog/directory-sync.ts';
import { declareEgressAddresses } from '#server/db/repositories/egress-repository.ts';
import { listCountries } from '#server/db/repositories/catalog-repository.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startSimulatorHarness, type SimulatorHarness } from '#tests/server/simulator/support.ts';

// The directory sync asks from the watcher's direct address, so its requests draw on that
// address's token bucket and wait out its cool-down: however many countries there are, it
// never sends more than the bucket allows. A hand-moved clock stands for the waits.

const START = Date.parse('2026-11-25T09:00:00Z');
const RATE_PER_MINUTE = 6;
const BURST = 2;
const INTERVAL_MS = 1_000;

describe('the store directory sync’s pacing', () => {
  let testDb: TestDatabase;
  let harness: SimulatorHarness;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await seedCatalog(testDb.db);
    harness = await startSimulatorHarness();
  });
  afterAll(async () => {
    await harness?.close();
    await testDb?.drop();
  });

  it('stays within the address’s bucket and the pause between requests', async () => {
    let clock = START;
    await declareEgressAddresses(
      testDb.db,
      [{ label: 'direct paced', kind: 'direct', ratePerMinute: RATE_PER_MINUTE, burst: BURST }],
      new Date(clock),
    );
    const sentAt: number[] = [];
    const result = await syncStoreDirectory(testDb.db, {
      baseUrl: harness.simulator.url,
      now: () => clock,
      fetchDirectory: async (input, init) => {
        sentAt.push(clock);
        return await fetch(input, init);
      },
      pacer: createDirectoryPacer({
        db: testDb.db,
        addressLabel: 'direct paced',
        intervalMs: INTERVAL_MS,
        maxWaitMs: 60 * 60_000,
        now: () => clock,
        sleep: async (ms) => {
          clock += ms;
        },
      }),
    });
    const countries = (await listCountries(testDb.db)).length;
    expect(result.countries).toHaveLength(countries);
    expect(sentAt).toHaveLength(countries);
    for (const [index, at] of sentAt.entries()) {
      // A bucket of BURST refilled at RATE_PER_MINUTE allows this many requests by `at`.
      const allowed = BURST + Math.floor(((at - START) * RATE_PER_MINUTE) / 60_000);
      expect(index + 1, `request ${index + 1} at +${(at - START) / 1000} s`).toBeLessThanOrEqual(
        allowed,
      );
      if (index > 0) expect(at - sentAt[index - 1]).toBeGreaterThanOrEqual(INTERVAL_MS);
    }
    // Past the burst the requests are spread at the address's rate, not sent back to back.
    expect(sentAt.at(-1)! - START).toBeGreaterThanOrEqual(
      ((countries - BURST) * 60_000) / RATE_PER_MINUTE,
    );
    const row = await testDb.db
      .selectFrom('egress_addresses')
      .select('requests')
      .where('label', '=', 'direct paced')
      .executeTakeFirstOrThrow();
    expect(Number(row.requests)).toBe(countries);
  });

  it('asks nothing while the address cools down after a block, and says why', async () => {
    const clock = START + 24 * 3_600_000;
    await declareEgressAddresses(
      testDb.db,
      [{ label: 'direct blocked', kind: 'direct', ratePerMinute: 1, burst: 20 }],
      new Date(clock),
    );
    await testDb.db
      .updateTable('egress_addresses')
      .set({ cool_down_until: new Date(clock + 3_600_000) })
      .where('label', '=', 'direct blocked')
      .execute();
    let requests = 0;
    const result = await syncStoreDirectory(testDb.db, {
      baseUrl: harness.simulator.url,
      now: () => clock,
      fetchDirectory: async (input, init) => {
        requests += 1;
        return await fetch(input, init);
      },
      pacer: createDirectoryPacer({
        db: testDb.db,
        addressLabel: 'direct blocked',
        intervalMs: 0,
        maxWaitMs: 60_000,
        now: () => clock,
        sleep: async () => {},
      }),
    });
    expect(requests).toBe(0);
    for (const entry of result.countries) {
      expect(entry).toMatchObject({
        outcome: 'failed',
        problem: 'not asked: the address is cooling down after a block',
        closed: [],
      });
    }
  });
});
