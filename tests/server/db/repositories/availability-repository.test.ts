import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  lockCatalogForChange,
  lockSearchesForChange,
  lockStoresForUpdate,
} from '#server/db/locks.ts';
import { createCountingDatabase } from '#tests/helpers/query-counter.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { countWaitingAdvisoryLocks, isStoreFree, POLL } from './advisory-locks.ts';

describe('store locks (lockStoresForUpdate)', () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase();
  }, 60_000);
  afterAll(async () => testDb.drop());

  it('holds a transaction’s stores until it ends', async () => {
    await testDb.db.transaction().execute(async (trx) => {
      await lockStoresForUpdate(trx, ['R001', 'R002']);
      await testDb.db.connection().execute(async (probe) => {
        expect(await isStoreFree(probe, 'R001')).toBe(false);
        expect(await isStoreFree(probe, 'R003')).toBe(true);
      });
    });
    await testDb.db.connection().execute(async (probe) => {
      expect(await isStoreFree(probe, 'R001')).toBe(true);
    });
  });

  it('never waits on a later call, so two transactions each wanting the other’s store both finish', async () => {
    // Each takes one store, then (a neighbour recorded meanwhile, as in a search's edit) asks
    // for the other's: waiting there would be a deadlock, which PostgreSQL ends with an error.
    let releaseFirst: () => void = () => undefined;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let releaseSecond: () => void = () => undefined;
    const secondHolds = new Promise<void>((resolve) => (releaseSecond = resolve));
    const took: string[] = [];
    const first = testDb.db.transaction().execute(async (trx) => {
      await lockStoresForUpdate(trx, ['R010']);
      releaseFirst();
      await secondHolds;
      await lockStoresForUpdate(trx, ['R010', 'R020']);
      took.push('first');
    });
    const second = testDb.db.transaction().execute(async (trx) => {
      await firstHolds;
      await lockStoresForUpdate(trx, ['R020']);
      releaseSecond();
      await lockStoresForUpdate(trx, ['R010', 'R020']);
      took.push('second');
    });
    await Promise.all([first, second]);
    expect(took.sort()).toEqual(['first', 'second']);
  });

  it('takes a store free at the later call', async () => {
    await testDb.db.transaction().execute(async (trx) => {
      await lockStoresForUpdate(trx, ['R030']);
      await lockStoresForUpdate(trx, ['R031']);
      await testDb.db.connection().execute(async (probe) => {
        expect(await isStoreFree(probe, 'R031')).toBe(false);
      });
    });
  });

  it('lets a catalog change start only after the writers of stores in flight, and them after it', async () => {
    const order: string[] = [];
    let releaseWriter: () => void = () => undefined;
    const writerMayEnd = new Promise<void>((resolve) => (releaseWriter = resolve));
    let signalWriterHolds: () => void = () => undefined;
    const writerHolds = new Promise<void>((resolve) => (signalWriterHolds = resolve));
    const writer = testDb.db.transaction().execute(async (trx) => {
      await lockStoresForUpdate(trx, ['R040']);
      signalWriterHolds();
      await writerMayEnd;
      order.push('writer ends');
    });
    await writerHolds;
    const change = testDb.db.transaction().execute(async (trx) => {
      await lockCatalogForChange(trx);
      order.push('catalog change holds');
      // Its own refresh then takes stores, as writeProductModels does.
      await lockStoresForUpdate(trx, ['R041']);
      await new Promise((resolve) => setTimeout(resolve, 100));
      order.push('catalog change ends');
    });
    try {
      // The change asks for the catalog's lock exclusively and waits for the writer.
      await expect
        .poll(() => countWaitingAdvisoryLocks(testDb.db, 'ExclusiveLock'), POLL)
        .toBeGreaterThan(0);
      expect(order).toEqual([]);
    } finally {
      releaseWriter();
    }
    await writer;
    await expect.poll(() => order, POLL).toContain('catalog change holds');
    // A writer arriving while the change holds waits for it, even for another store.
    const later = testDb.db.transaction().execute(async (trx) => {
      await lockStoresForUpdate(trx, ['R042']);
      order.push('later writer holds');
    });
    await Promise.all([change, later]);
    expect(order).toEqual([
      'writer ends',
      'catalog change holds',
      'catalog change ends',
      'later writer holds',
    ]);
  });

  it('takes a search’s lock once per transaction: asking again for it sends nothing', async () => {
    const counting = createCountingDatabase(testDb.url);
    const [first, second] = [
      '5f0c1f5e-0000-4000-8000-000000000001',
      '5f0c1f5e-0000-4000-8000-000000000002',
    ];
    try {
      const statements = await counting.countDuring(() =>
        counting.db.transaction().execute(async (trx) => {
          await lockSearchesForChange(trx, [first]);
          await lockSearchesForChange(trx, [first]);
          await lockSearchesForChange(trx, [first, second]);
        }),
      );
      const locks = statements.filter((statement) => statement.includes('pg_advisory_xact_lock'));
      expect(locks).toHaveLength(2);
    } finally {
      await counting.destroy();
    }
  });
});
