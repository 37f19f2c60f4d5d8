import { sql, type Kysely } from 'kysely';

/**
 * The user's own alert channels (issue 29): ntfy, Discord, Telegram and signed webhooks.
 * `settings` holds what the owner may see again (server, topic, chat id, the webhook's
 * address); `secret` holds what is never answered after creation (tokens, webhook URLs that
 * carry their own token, the signing secret). A channel failing repeatedly is paused
 * (`paused_at`, `pause_reason`) instead of retried forever. `search_channel_exclusions`
 * lists the searches that do not use a channel, so a new channel reaches every search and a
 * new search uses every channel until the user says otherwise. Outbox rows of these channels
 * name their channel in `alert_outbox.user_channel_id`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_channels')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('ntfy', 'discord', 'telegram', 'webhook')`),
    )
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('settings', 'jsonb', (c) => c.notNull())
    .addColumn('secret', 'jsonb', (c) => c.notNull())
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_failure', 'text')
    .addColumn('last_failure_at', 'timestamptz')
    .addColumn('last_success_at', 'timestamptz')
    .addColumn('paused_at', 'timestamptz')
    .addColumn('pause_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('user_channels_user_idx')
    .on('user_channels')
    .column('user_id')
    .execute();
  await db.schema
    .createTable('search_channel_exclusions')
    .addColumn('search_id', 'uuid', (c) =>
      c.notNull().references('searches.id').onDelete('cascade'),
    )
    .addColumn('channel_id', 'uuid', (c) =>
      c.notNull().references('user_channels.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('search_channel_exclusions_pkey', ['search_id', 'channel_id'])
    .execute();
  await db.schema
    .alterTable('alert_outbox')
    .addColumn('user_channel_id', 'uuid', (c) =>
      c.references('user_channels.id').onDelete('set null'),
    )
    .execute();
  await sql`alter table alert_outbox drop constraint if exists alert_outbox_channel_check`.execute(
    db,
  );
  await sql`alter table alert_outbox add constraint alert_outbox_channel_check
    check (channel in ('email', 'text', 'push', 'ntfy', 'discord', 'telegram', 'webhook'))`.execute(
    db,
  );
}

/** Drops the channels; their outbox rows go too (the old check would refuse them). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from alert_outbox where channel in ('ntfy', 'discord', 'telegram', 'webhook')`.execute(
    db,
  );
  await sql`alter table alert_outbox drop constraint if exists alert_outbox_channel_check`.execute(
    db,
  );
  await sql`alter table alert_outbox add constraint alert_outbox_channel_check
    check (channel in ('email', 'text', 'push'))`.execute(db);
  await db.schema.alterTable('alert_outbox').dropColumn('user_channel_id').execute();
  await db.schema.dropTable('search_channel_exclusions').execute();
  await db.schema.dropTable('user_channels').execute();
}
