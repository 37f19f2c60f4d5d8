import pg from 'pg';
import type { Db } from './database.ts';
import { dropLegacyQueueSchema, QUEUE_SCHEMA } from './queue-schema.ts';

/**
 * The role the application connects to the embedded cluster as: it may read and write the
 * tables and own pg-boss's queue schema, nothing more. Not a superuser, so no
 * `COPY ... FROM PROGRAM`, no server files, no `ALTER SYSTEM`; not the tables' owner, so no
 * DDL on them. Migrations run as the owner (the cluster's bootstrap role) before it connects.
 */
export const APPLICATION_ROLE = 'shelfwatch_app';

/** Tables the application only reads: what the migrations did is the owner's to write. */
const OWNER_WRITTEN_TABLES = ['kysely_migration', 'kysely_migration_lock'] as const;

/** Serialises processes preparing the role at once (npm start and a worker joining it). */
const PREPARE_LOCK_KEY = 'shelfwatch.application-role';

/**
 * Makes the application role ready, as the owner (`ownerUrl`, connected to the app's
 * database), after the migrations: creates it when missing (a data folder from before it
 * existed) or sets its attributes and password again, grants it the data, installs pg-boss's
 * queue schema when missing and hands that schema over to it (pg-boss creates a table per
 * queue at run time, which only the schema's owner may). Safe to run on every start.
 */
export async function prepareApplicationRole(
  ownerDb: Db,
  ownerUrl: string,
  password: string,
): Promise<void> {
  // A pg-boss schema too old to migrate is dropped first, by its owner (see queue-schema.ts).
  await dropLegacyQueueSchema(ownerDb);
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [PREPARE_LOCK_KEY]);
    await ensureRole(client, password);
    await installQueueSchema(client);
    await grantData(client);
  } finally {
    await client.end();
  }
}

/** Creates the role or brings an existing one back to these attributes and this password. */
async function ensureRole(client: pg.Client, password: string): Promise<void> {
  const existing = await client.query('select 1 from pg_roles where rolname = $1', [
    APPLICATION_ROLE,
  ]);
  const verb = existing.rowCount === 0 ? 'create' : 'alter';
  // Role statements take no parameters: the password goes in as an escaped literal.
  await client.query(
    `${verb} role ${pg.escapeIdentifier(APPLICATION_ROLE)} with login nosuperuser nocreatedb ` +
      `nocreaterole noreplication nobypassrls password ${client.escapeLiteral(password)}`,
  );
}

/**
 * Installs pg-boss's schema as the owner when it is missing (its install starts with
 * CREATE SCHEMA, which needs a right on the database the application must not have: a
 * schema of its own named after another role would come first in that role's search path),
 * then makes the application role the owner of the schema and everything in it.
 */
async function installQueueSchema(client: pg.Client): Promise<void> {
  const installed = await client.query<{ name: string | null }>(
    'select to_regclass($1)::text as name',
    [`${QUEUE_SCHEMA}.version`],
  );
  if (installed.rows[0]?.name === null || installed.rows[0]?.name === undefined) {
    const { getConstructionPlans } = await import('pg-boss');
    await client.query(getConstructionPlans(QUEUE_SCHEMA));
  }
  const role = pg.escapeIdentifier(APPLICATION_ROLE);
  const schema = pg.escapeIdentifier(QUEUE_SCHEMA);
  const owner = `(select oid from pg_roles where rolname = ${client.escapeLiteral(APPLICATION_ROLE)})`;
  const namespace = `${client.escapeLiteral(QUEUE_SCHEMA)}::regnamespace`;
  // Indexes, TOAST tables, row and array types and sequences owned by a column follow their
  // table; the rest is handed over one by one (a partition does not follow its parent).
  await client.query(`
    do $$
    declare
      item record;
    begin
      execute 'alter schema ${schema} owner to ${role}';
      for item in
        select c.oid::regclass as name from pg_class c
         where c.relnamespace = ${namespace} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
           and c.relowner <> ${owner}
           and not (c.relkind = 'S' and exists (
             select 1 from pg_depend d
              where d.classid = 'pg_class'::regclass and d.objid = c.oid
                and d.deptype in ('a', 'i')))
      loop
        execute format('alter table %s owner to ${role}', item.name);
      end loop;
      for item in
        select p.oid::regprocedure as name from pg_proc p
         where p.pronamespace = ${namespace} and p.proowner <> ${owner}
      loop
        execute format('alter routine %s owner to ${role}', item.name);
      end loop;
      for item in
        select t.oid::regtype as name from pg_type t
         where t.typnamespace = ${namespace} and t.typowner <> ${owner}
           and t.typrelid = 0 and t.typelem = 0
      loop
        execute format('alter type %s owner to ${role}', item.name);
      end loop;
    end $$`);
}

/**
 * Grants the role the application's data: reading and writing every table (those of later
 * migrations too, through default privileges), but no DDL and no writes to the migrations'
 * own tables.
 */
async function grantData(client: pg.Client): Promise<void> {
  const role = pg.escapeIdentifier(APPLICATION_ROLE);
  const database = await client.query<{ name: string }>('select current_database() as name');
  const statements = [
    `grant connect, temporary on database ${pg.escapeIdentifier(database.rows[0]?.name ?? '')} to ${role}`,
    `grant usage on schema public to ${role}`,
    `grant select, insert, update, delete on all tables in schema public to ${role}`,
    `grant usage, select, update on all sequences in schema public to ${role}`,
    `alter default privileges in schema public grant select, insert, update, delete on tables to ${role}`,
    `alter default privileges in schema public grant usage, select, update on sequences to ${role}`,
  ];
  const present = await client.query<{ name: string }>(
    `select c.relname as name from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relname = any($1::text[])`,
    [OWNER_WRITTEN_TABLES],
  );
  for (const { name } of present.rows) {
    statements.push(`revoke insert, update, delete on ${pg.escapeIdentifier(name)} from ${role}`);
  }
  await client.query(`begin; ${statements.join('; ')}; commit`);
}
