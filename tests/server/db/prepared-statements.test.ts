import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from '#server/db/database.ts';
import { createPreparingPool } from '#server/db/prepared-statements.ts';
import type { Database } from '#server/db/schema.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

/** The statements the connection has prepared (asked on that same connection). */
async function listPrepared(db: Db | Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`
    select statement from pg_prepared_statements order by prepare_time`.execute(db);
  return rows.map((row) => row.statement);
}

describe('prepared statements', () => {
  let testDb: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    testDb = await createTestDatabase({ isMigrated: false });
    // One connection, so every statement and the pg_prepared_statements check share it.
    db = createDatabase(testDb.url, 1);
  });
  afterAll(async () => {
    await db.destroy();
    await testDb.drop();
  });

  it('prepares a statement with parameters from its second run on, with the same answers', async () => {
    const answers = [];
    for (const value of [1, 2, 3]) {
      answers.push((await sql<{ n: number }>`select ${value}::int + 1 as n`.execute(db)).rows);
    }
    expect(answers).toEqual([[{ n: 2 }], [{ n: 3 }], [{ n: 4 }]]);
    expect(await listPrepared(db)).toContain('select $1::int + 1 as n');
  });

  it('runs one-off statements and statements without parameters unprepared', async () => {
    await sql`select ${'once'}::text as once`.execute(db);
    await sql`select 'twice' as twice`.execute(db);
    await sql`select 'twice' as twice`.execute(db);
    const prepared = await listPrepared(db);
    expect(prepared.some((text) => text.includes('once'))).toBe(false);
    expect(prepared.some((text) => text.includes('twice'))).toBe(false);
  });

  it('still answers when another process changes the columns under a prepared plan', async () => {
    await sql`create table widgets (id int primary key)`.execute(db);
    await sql`insert into widgets values (1)`.execute(db);
    const readWidgets = async (): Promise<unknown[]> =>
      (await sql`select * from widgets where id = ${1}`.execute(db)).rows;
    expect(await readWidgets()).toEqual([{ id: 1 }]);
    expect(await readWidgets()).toEqual([{ id: 1 }]);
    const other = new pg.Client({ connectionString: testDb.url });
    await other.connect();
    await other.query(`alter table widgets add column colour text not null default 'blue'`);
    await other.end();
    expect(await readWidgets()).toEqual([{ id: 1, colour: 'blue' }]);
    expect(await readWidgets()).toEqual([{ id: 1, colour: 'blue' }]);
  });

  it('fails only the transaction that meets a changed plan, and the connection recovers', async () => {
    await sql`create table gadgets (id int primary key)`.execute(db);
    await sql`insert into gadgets values (7)`.execute(db);
    const readGadgets = async (executor: Db | Kysely<Database>): Promise<unknown[]> =>
      (await sql`select * from gadgets where id = ${7}`.execute(executor)).rows;
    await readGadgets(db);
    await readGadgets(db);
    const other = new pg.Client({ connectionString: testDb.url });
    await other.connect();
    await other.query('alter table gadgets add column size int not null default 3');
    await other.end();
    await expect(db.transaction().execute(async (trx) => readGadgets(trx))).rejects.toThrow();
    expect(await readGadgets(db)).toEqual([{ id: 7, size: 3 }]);
  });

  it('keeps at most the given number of statements prepared per connection', async () => {
    const pool = new pg.Pool({ connectionString: testDb.url, max: 1 });
    const limited = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: createPreparingPool(pool, { maxPreparedPerConnection: 2 }),
      }),
    });
    try {
      for (const column of ['a', 'b', 'c', 'd']) {
        for (const value of [1, 2, 3]) {
          await sql`select ${value}::int as ${sql.ref(column)}`.execute(limited);
        }
      }
      const prepared = await listPrepared(limited);
      expect(prepared).toEqual(['select $1::int as "a"', 'select $1::int as "b"']);
    } finally {
      await limited.destroy();
    }
  });

  it('hands out one client object per connection, so Kysely sets each connection up once', async () => {
    const pool = new pg.Pool({ connectionString: testDb.url, max: 1 });
    const preparing = createPreparingPool(pool);
    try {
      const first = await preparing.connect();
      first.release();
      const second = await preparing.connect();
      second.release();
      expect(second).toBe(first);
    } finally {
      await preparing.end();
    }
  });

  it("rejects with PostgreSQL's error and keeps the connection usable", async () => {
    const failing = sql`select ${'x'}::int as n`.execute(db);
    await expect(failing).rejects.toMatchObject({ code: '22P02' });
    expect((await sql<{ n: number }>`select ${5}::int as n`.execute(db)).rows).toEqual([{ n: 5 }]);
  });
});
