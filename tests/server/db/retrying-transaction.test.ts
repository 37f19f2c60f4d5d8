import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRetryingTransaction } from '#server/db/retrying-transaction.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

/** A promise and the function that settles it, to step two transactions in turn. */
function createSignal(): { wait: Promise<void>; give: () => void } {
  let give: () => void = () => undefined;
  const wait = new Promise<void>((resolve) => (give = resolve));
  return { wait, give };
}

describe('transactions run again after a deadlock (runRetryingTransaction)', () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await sql`create table counters (id int primary key, n int not null)`.execute(testDb.db);
  }, 60_000);
  afterAll(async () => testDb.drop());

  it('commits both of two transactions that lock two rows in opposite orders', async () => {
    await sql`delete from counters`.execute(testDb.db);
    await sql`insert into counters values (1, 0), (2, 0)`.execute(testDb.db);
    const firstHolds = createSignal();
    const secondHolds = createSignal();
    let runs = 0;
    // Each takes one row, waits until the other has its own, then asks for the other's:
    // PostgreSQL ends one of them as the deadlock's victim, which then runs again alone.
    const increment = (own: number, other: number, holds: () => void, otherHolds: Promise<void>) =>
      runRetryingTransaction(testDb.db, async (trx) => {
        runs += 1;
        await sql`update counters set n = n + 1 where id = ${own}`.execute(trx);
        holds();
        await otherHolds;
        await sql`update counters set n = n + 1 where id = ${other}`.execute(trx);
      });
    await Promise.all([
      increment(1, 2, firstHolds.give, secondHolds.wait),
      increment(2, 1, secondHolds.give, firstHolds.wait),
    ]);
    expect(runs).toBe(3);
    const { rows } = await sql<{ id: number; n: number }>`
      select id, n from counters order by id`.execute(testDb.db);
    expect(rows).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('gives up with PostgreSQL’s error after the attempts, having rolled each one back', async () => {
    await sql`delete from counters`.execute(testDb.db);
    await sql`insert into counters values (1, 0)`.execute(testDb.db);
    let runs = 0;
    const always = runRetryingTransaction(
      testDb.db,
      async (trx) => {
        runs += 1;
        await sql`update counters set n = n + 1 where id = 1`.execute(trx);
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      },
      { attempts: 2 },
    );
    await expect(always).rejects.toMatchObject({ code: '40P01' });
    expect(runs).toBe(2);
    const { rows } = await sql<{ n: number }>`select n from counters where id = 1`.execute(
      testDb.db,
    );
    expect(rows[0].n).toBe(0);
  });

  it('runs a transaction once when it fails for any other reason', async () => {
    let runs = 0;
    const failing = runRetryingTransaction(testDb.db, async (trx) => {
      runs += 1;
      await sql`select 1 / 0`.execute(trx);
    });
    await expect(failing).rejects.toMatchObject({ code: '22012' });
    expect(runs).toBe(1);
  });
});
