import { sql, type Kysely } from 'kysely';

/**
 * The watch engine against Apple as it answers today: a token bucket and cool-down per
 * egress address shared by every process (egress_addresses), what each location seed's
 * answer listed (location_seeds), the endpoint shape each country answers on
 * (country_endpoints), the parts Apple refused as invalid (invalid_parts), and when an
 * alerting sweep (preferred parts only) last covered a target.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('egress_addresses')
    .addColumn('label', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('rate_per_minute', 'double precision', (c) => c.notNull())
    .addColumn('burst', 'integer', (c) => c.notNull())
    .addColumn('tokens', 'double precision', (c) => c.notNull())
    .addColumn('refilled_at', 'timestamptz', (c) => c.notNull())
    .addColumn('cool_down_until', 'timestamptz')
    .addColumn('consecutive_blocks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_block_at', 'timestamptz')
    .addColumn('last_success_at', 'timestamptz')
    .addColumn('last_failure_at', 'timestamptz')
    .addColumn('last_failure_kind', 'text')
    .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('location_seeds')
    .addColumn('country_code', 'text', (c) => c.notNull())
    .addColumn('seed_store_id', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('store_ids', sql`text[]`)
    .addColumn('learned_at', 'timestamptz')
    .addColumn('last_requested_at', 'timestamptz')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_failure_kind', 'text')
    .addColumn('next_due_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('location_seeds_pkey', ['country_code', 'seed_store_id'])
    .execute();
  await db.schema
    .createTable('country_endpoints')
    .addColumn('country_code', 'text', (c) => c.primaryKey())
    .addColumn('shape', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('switched_at', 'timestamptz', (c) => c.notNull())
    .addColumn('suspect_shape', 'text')
    .addColumn('suspect_since', 'timestamptz')
    .addColumn('other_probed_at', 'timestamptz')
    .execute();
  await db.schema
    .createTable('invalid_parts')
    .addColumn('country_code', 'text', (c) => c.notNull())
    .addColumn('part_number', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('found_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('invalid_parts_pkey', ['country_code', 'part_number'])
    .execute();
  await db.schema
    .alterTable('poll_targets')
    .addColumn('last_alert_covered_at', 'timestamptz')
    .execute();
}

/** Drops the four tables and the column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('poll_targets').dropColumn('last_alert_covered_at').execute();
  await db.schema.dropTable('invalid_parts').execute();
  await db.schema.dropTable('country_endpoints').execute();
  await db.schema.dropTable('location_seeds').execute();
  await db.schema.dropTable('egress_addresses').execute();
}
