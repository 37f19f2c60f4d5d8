import { sql, type Kysely } from 'kysely';

/**
 * Accounts made without a sign-up: an embedded login may exist before its password does, and
 * one-time links (finish setup, forgot password) are kept as SHA-256 digests only. Searches
 * over a plan's limit after a downgrade are paused (kept, not polled, not alerted).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('idp_accounts')
    .alterColumn('password_hash', (c) => c.dropNotNull())
    .execute();
  await db.schema
    .createTable('account_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) =>
      c.notNull().check(sql`purpose in ('finish-setup', 'reset-password')`),
    )
    .addColumn('idp_account_id', 'uuid', (c) =>
      c.notNull().references('idp_accounts.id').onDelete('cascade'),
    )
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('account_tokens_account')
    .on('account_tokens')
    .column('idp_account_id')
    .execute();
  await db.schema.alterTable('searches').addColumn('paused_at', 'timestamptz').execute();
}

/** Drops the tokens and the paused flag; accounts still without a password cannot go back. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('searches').dropColumn('paused_at').execute();
  await db.schema.dropTable('account_tokens').execute();
  await sql`DELETE FROM idp_accounts WHERE password_hash IS NULL`.execute(db);
  await db.schema
    .alterTable('idp_accounts')
    .alterColumn('password_hash', (c) => c.setNotNull())
    .execute();
}
