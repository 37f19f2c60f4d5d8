import { sql, type Kysely } from 'kysely';

/** Tables of the watch engine (polling, history, upstream health) and of alert delivery. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('availability_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('store_id', 'text', (c) => c.notNull().references('stores.store_id'))
    .addColumn('part_number', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('pickup_quote', 'text')
    .addColumn('observed_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('availability_events_store_part')
    .on('availability_events')
    .columns(['store_id', 'part_number', 'observed_at'])
    .execute();

  await db.schema
    .createTable('poll_targets')
    .addColumn('country_code', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('store_id', 'text', (c) => c.notNull())
    .addColumn('last_requested_at', 'timestamptz')
    .addColumn('last_covered_at', 'timestamptz')
    .addColumn('next_due_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_failure_kind', 'text')
    .addPrimaryKeyConstraint('poll_targets_pkey', ['country_code', 'product_id', 'store_id'])
    .execute();

  await db.schema
    .createTable('upstream_hosts')
    .addColumn('host', 'text', (c) => c.primaryKey())
    .addColumn('last_success_at', 'timestamptz')
    .addColumn('last_failure_at', 'timestamptz')
    .addColumn('last_failure_kind', 'text')
    .addColumn('cool_down_until', 'timestamptz')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('upstream_requests')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
    .addColumn('is_success', 'boolean', (c) => c.notNull())
    .addColumn('failure_kind', 'text')
    .addColumn('duration_ms', 'integer')
    .execute();
  await db.schema
    .createIndex('upstream_requests_host_time')
    .on('upstream_requests')
    .columns(['host', 'requested_at'])
    .execute();

  await db.schema
    .createTable('search_alert_state')
    .addColumn('search_id', 'uuid', (c) =>
      c.notNull().references('searches.id').onDelete('cascade'),
    )
    .addColumn('store_id', 'text', (c) => c.notNull())
    .addColumn('part_number', 'text', (c) => c.notNull())
    .addColumn('last_alerted_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_alert_state_pkey', ['search_id', 'store_id', 'part_number'])
    .execute();

  await db.schema
    .createTable('alert_outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('channel', 'text', (c) =>
      c.notNull().check(sql`channel in ('email', 'text', 'push')`),
    )
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('search_id', 'uuid', (c) => c.references('searches.id').onDelete('set null'))
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'sending', 'sent', 'failed', 'suppressed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('alert_outbox_due')
    .on('alert_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('keys', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .alterTable('users')
    .addColumn('is_text_opted_out', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}
