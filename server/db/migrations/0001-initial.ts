import { sql, type Kysely } from 'kysely';

/** Accounts, login, catalog, searches and the availability tables the reads need. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone_number', 'text')
    .addColumn('enable_notifications', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('plan', 'text', (c) =>
      c
        .notNull()
        .defaultTo('good')
        .check(sql`plan in ('good', 'better', 'best')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('users_issuer_subject_key', ['issuer', 'subject'])
    .execute();

  await db.schema
    .createTable('idp_accounts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`CREATE UNIQUE INDEX idp_accounts_email_key ON idp_accounts (lower(email))`.execute(db);

  await db.schema
    .createTable('idp_payloads')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addPrimaryKeyConstraint('idp_payloads_pkey', ['id', 'kind'])
    .execute();
  await db.schema
    .createIndex('idp_payloads_grant_id')
    .on('idp_payloads')
    .column('grant_id')
    .execute();
  await db.schema.createIndex('idp_payloads_uid').on('idp_payloads').column('uid').execute();
  await db.schema
    .createIndex('idp_payloads_expires_at')
    .on('idp_payloads')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('countries')
    .addColumn('country_code', 'text', (c) => c.primaryKey())
    .addColumn('locale_code', 'text', (c) => c.notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('stores')
    .addColumn('store_id', 'text', (c) => c.primaryKey())
    .addColumn('store_name', 'text', (c) => c.notNull())
    .addColumn('country_locale', 'text', (c) =>
      c.notNull().references('countries.locale_code').onUpdate('cascade'),
    )
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('state_code', 'text')
    .addColumn('state_name', 'text')
    .addColumn('address1', 'text', (c) => c.notNull())
    .addColumn('address2', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('telephone', 'text')
    .addColumn('store_slug', 'text')
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('product_types')
    .addColumn('product_id', 'text', (c) => c.primaryKey())
    .addColumn('product_name', 'text', (c) => c.notNull())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('product_models')
    .addColumn('product_id', 'text', (c) =>
      c.notNull().references('product_types.product_id').onDelete('cascade'),
    )
    .addColumn('country_code', 'text', (c) => c.notNull().references('countries.country_code'))
    .addColumn('part_number', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('product_models_pkey', ['country_code', 'part_number'])
    .execute();
  await db.schema
    .createIndex('product_models_product')
    .on('product_models')
    .columns(['product_id', 'country_code'])
    .execute();

  await db.schema
    .createTable('searches')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('product_type', 'text', (c) => c.notNull().references('product_types.product_id'))
    .addColumn('store_id', 'text', (c) => c.notNull().references('stores.store_id'))
    .addColumn('include_nearby_store_results', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('show_results_only_for_preferred_models', 'boolean', (c) =>
      c.notNull().defaultTo(false),
    )
    .addColumn('send_text_updates', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('send_email_updates', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('max_distance_miles', 'double precision')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('searches_user')
    .on('searches')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('search_preferred_models')
    .addColumn('search_id', 'uuid', (c) =>
      c.notNull().references('searches.id').onDelete('cascade'),
    )
    .addColumn('part_number', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_preferred_models_pkey', ['search_id', 'part_number'])
    .execute();

  await db.schema
    .createTable('availability_snapshots')
    .addColumn('store_id', 'text', (c) => c.notNull().references('stores.store_id'))
    .addColumn('part_number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('available', 'unavailable', 'ineligible', 'unknown')`),
    )
    .addColumn('pickup_quote', 'text')
    .addColumn('observed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('availability_snapshots_pkey', ['store_id', 'part_number'])
    .execute();

  await db.schema
    .createTable('store_neighbours')
    .addColumn('store_id', 'text', (c) => c.notNull().references('stores.store_id'))
    .addColumn('neighbour_store_id', 'text', (c) => c.notNull().references('stores.store_id'))
    .addColumn('distance_miles', 'double precision', (c) => c.notNull())
    .addColumn('observed_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('store_neighbours_pkey', ['store_id', 'neighbour_store_id'])
    .execute();
}
