import { sql, type Kysely } from 'kysely';

/**
 * Stripe billing: the customer of each user, every webhook event id seen (a replay has no
 * second effect), each subscription as the newest event described it (events arrive in any
 * order), and the checkout sessions already turned into an account or a sign-in (usable once).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('stripe_customer_id', 'text').execute();
  await sql`CREATE UNIQUE INDEX users_stripe_customer_key ON users (stripe_customer_id)
    WHERE stripe_customer_id IS NOT NULL`.execute(db);

  await db.schema
    .createTable('billing_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('billing_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('price_id', 'text')
    .addColumn('lookup_key', 'text')
    .addColumn('plan', 'text', (c) => c.check(sql`plan in ('good', 'better', 'best')`))
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('last_payment_failed_at', 'timestamptz')
    // The `created` of the event this row was last written from: an older one never overwrites it.
    .addColumn('event_created', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('billing_subscriptions_customer')
    .on('billing_subscriptions')
    .column('customer_id')
    .execute();

  await db.schema
    .createTable('billing_checkouts')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

/** Drops the billing tables and the customer column. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('billing_checkouts').execute();
  await db.schema.dropTable('billing_subscriptions').execute();
  await db.schema.dropTable('billing_events').execute();
  await sql`DROP INDEX IF EXISTS users_stripe_customer_key`.execute(db);
  await db.schema.alterTable('users').dropColumn('stripe_customer_id').execute();
}
