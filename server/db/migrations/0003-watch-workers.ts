import { sql, type Kysely } from 'kysely';

/**
 * Watch workers and their request budgets, and the freshness the last planned cycle promised:
 * the planner splits the budget of all live workers, and /v2/status reports what it gives.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('watch_workers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('budget_per_minute', 'double precision', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('watch_freshness')
    // One row: the planner overwrites it every cycle.
    .addColumn('id', 'boolean', (c) =>
      c
        .primaryKey()
        .defaultTo(true)
        .check(sql`id`),
    )
    .addColumn('planned_at', 'timestamptz', (c) => c.notNull())
    .addColumn('interval_ms', 'integer', (c) => c.notNull())
    .addColumn('workers', 'integer', (c) => c.notNull())
    .addColumn('budget_per_minute', 'double precision', (c) => c.notNull())
    .addColumn('alerting_groups', 'integer', (c) => c.notNull())
    .addColumn('page_only_groups', 'integer', (c) => c.notNull())
    .addColumn('alerting_fresh_within_ms', 'double precision', (c) => c.notNull())
    .addColumn('all_fresh_within_ms', 'double precision', (c) => c.notNull())
    .execute();
}

/** Drops both tables. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('watch_freshness').execute();
  await db.schema.dropTable('watch_workers').execute();
}
