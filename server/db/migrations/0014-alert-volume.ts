import { sql, type Kysely } from 'kysely';

/**
 * Alert volume and relevance (issue 42). `searches.alert_cadence_minutes`: at most one message
 * per channel within this many minutes per search (0 sends every wave at once), 15 by default.
 * `search_alert_cadence`: per search and channel, when its latest message was released and
 * the key of the row collecting the next one. `users.time_zone`: the IANA zone alert times are
 * written in (set from the browser on first sign-in; null until then, shown as UTC).
 *
 * Searches with no distance limit get the default of their store's country: 30 miles where
 * distances are in miles (the US and the UK), 50 km (31.07 miles) elsewhere, because a null
 * limit let "nearby" alerts name stores hundreds of miles away. A user may still clear it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('searches')
    .addColumn('alert_cadence_minutes', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(15)
        .check(sql`alert_cadence_minutes between 0 and 1440`),
    )
    .execute();
  await db.schema.alterTable('users').addColumn('time_zone', 'text').execute();
  await db.schema
    .createTable('search_alert_cadence')
    .addColumn('search_id', 'uuid', (c) =>
      c.notNull().references('searches.id').onDelete('cascade'),
    )
    .addColumn('channel_key', 'text', (c) => c.notNull())
    .addColumn('last_release_at', 'timestamptz')
    .addColumn('pending_key', 'text')
    .addColumn('pending_release_at', 'timestamptz')
    .addPrimaryKeyConstraint('search_alert_cadence_pkey', ['search_id', 'channel_key'])
    .execute();
  await sql`
    update searches s
       set max_distance_miles = case when st.country_locale in ('en_US', 'en_GB') then 30
                                     else 50 / 1.609344 end
      from stores st
     where st.store_id = s.store_id and s.max_distance_miles is null`.execute(db);
}

/** Drops the table and the columns; distances set by `up` stay (they are valid limits). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('search_alert_cadence').execute();
  await db.schema.alterTable('users').dropColumn('time_zone').execute();
  await db.schema.alterTable('searches').dropColumn('alert_cadence_minutes').execute();
}
