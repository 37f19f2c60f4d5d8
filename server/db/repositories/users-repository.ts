import { sql } from 'kysely';
import type { Executor } from '../database.ts';
import type { PlanCode, UserRow } from '../schema.ts';

/** Who a bearer token speaks for: the login provider and its id for the person. */
export type UserIdentity = { issuer: string; subject: string; email?: string };

type UserChangeListener = (userId: string) => void;

const userChangeListeners = new Set<UserChangeListener>();

/**
 * Calls `listener` with the id of every user row this process changes (plan, account form),
 * so copies kept in memory can be dropped; returns the function that stops the calls.
 */
export function watchUserChanges(listener: UserChangeListener): () => void {
  userChangeListeners.add(listener);
  return () => {
    userChangeListeners.delete(listener);
  };
}

/**
 * The PostgreSQL channel user changes are announced on (payload: the user id), so every API
 * process drops its copy at once, whichever process made the change (`shelfwatch set-plan`,
 * a billing webhook answered by another server).
 */
export const USER_CHANGE_CHANNEL = 'shelfwatch_user_changed';

/**
 * Tells this process's watchers now, and every process (this one included) through NOTIFY:
 * inside a transaction that is delivered when it commits, so a process reloading the row on
 * the notification cannot read (and keep) the state from before the change.
 */
async function announceUserChange(db: Executor, userId: string): Promise<void> {
  for (const listener of userChangeListeners) {
    listener(userId);
  }
  await sql`select pg_notify(${USER_CHANGE_CHANNEL}, ${userId})`.execute(db);
}

/** Announces a change of users' rows made outside this file (billing links, text opt-outs). */
export async function announceUserChanges(db: Executor, userIds: readonly string[]): Promise<void> {
  for (const userId of new Set(userIds)) {
    await announceUserChange(db, userId);
  }
}

/** The user of an identity, or undefined before its first sign-in. */
export async function findUserByIdentity(
  db: Executor,
  identity: UserIdentity,
): Promise<UserRow | undefined> {
  return await db
    .selectFrom('users')
    .selectAll()
    .where('issuer', '=', identity.issuer)
    .where('subject', '=', identity.subject)
    .executeTakeFirst();
}

/**
 * The users of several identities in one statement (one text whatever their number, so it
 * stays prepared), in the order asked; undefined for an identity never signed in.
 */
export async function findUsersByIdentities(
  db: Executor,
  identities: readonly UserIdentity[],
): Promise<(UserRow | undefined)[]> {
  if (identities.length === 0) return [];
  const issuers = identities.map((identity) => identity.issuer);
  const subjects = identities.map((identity) => identity.subject);
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where(
      sql<boolean>`(issuer, subject) in (select * from unnest(${issuers}::text[], ${subjects}::text[]))`,
    )
    .execute();
  const byIdentity = new Map(rows.map((row) => [`${row.issuer}\u0000${row.subject}`, row]));
  return identities.map((identity) =>
    byIdentity.get(`${identity.issuer}\u0000${identity.subject}`),
  );
}

/**
 * findOrCreateUserByIdentity for several identities: one read for all of them, then an
 * insert for each one seen for the first time. In the order asked; an identity whose insert
 * failed has its error in its place, so one failed first sign-in fails no other request.
 */
export async function findOrCreateUsersByIdentities(
  db: Executor,
  identities: readonly UserIdentity[],
): Promise<(UserRow | Error)[]> {
  const found = await findUsersByIdentities(db, identities);
  const settled = await Promise.allSettled(
    found.map(
      async (row, index) => row ?? (await findOrCreateUserByIdentity(db, identities[index])),
    ),
  );
  return settled.map((result) =>
    result.status === 'fulfilled'
      ? result.value
      : result.reason instanceof Error
        ? result.reason
        : new Error(String(result.reason)),
  );
}

/**
 * Finds the user of an identity, creating the row on first sight. A plain read first: the
 * insert is for the first request of a new person only, and tolerates a concurrent one.
 */
export async function findOrCreateUserByIdentity(
  db: Executor,
  identity: UserIdentity,
): Promise<UserRow> {
  const existing = await findUserByIdentity(db, identity);
  if (existing !== undefined) {
    return existing;
  }
  const inserted = await db
    .insertInto('users')
    .values({ issuer: identity.issuer, subject: identity.subject, email: identity.email ?? null })
    .onConflict((conflict) => conflict.columns(['issuer', 'subject']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted !== undefined) {
    return inserted;
  }
  // Another request created it between the read and the insert.
  const created = await findUserByIdentity(db, identity);
  if (created === undefined) {
    throw new Error(`The user of ${identity.issuer} ${identity.subject} vanished while created`);
  }
  return created;
}

/** The user with `id`, locked for update when inside a transaction that needs it. */
export async function findUserById(
  db: Executor,
  id: string,
  options: { isLocked?: boolean } = {},
): Promise<UserRow | undefined> {
  let query = db.selectFrom('users').selectAll().where('id', '=', id);
  if (options.isLocked === true) {
    query = query.forUpdate();
  }
  return await query.executeTakeFirst();
}

/** Finds users by email, case-insensitively (several identities may share one). */
export async function findUsersByEmail(db: Executor, email: string): Promise<UserRow[]> {
  return await db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .execute();
}

/** Saves the account form's fields. */
export async function updateUserAccount(
  db: Executor,
  id: string,
  values: { email: string | null; phone_number: string | null; enable_notifications: boolean },
): Promise<UserRow> {
  const updated = await db
    .updateTable('users')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await announceUserChange(db, id);
  return updated;
}

/** Sets the IANA zone alert times are written in. */
export async function updateUserTimeZone(
  db: Executor,
  id: string,
  timeZone: string,
): Promise<UserRow> {
  const updated = await db
    .updateTable('users')
    .set({ time_zone: timeZone, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await announceUserChange(db, id);
  return updated;
}

/** Changes a user's plan (billing webhooks and the admin command). */
export async function updateUserPlan(db: Executor, id: string, plan: PlanCode): Promise<void> {
  await db
    .updateTable('users')
    .set({ plan, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
  await announceUserChange(db, id);
}

/** Inserts many users in one statement (seeding and benchmarks); returns the new rows. */
export async function insertUsers(
  db: Executor,
  rows: readonly { issuer: string; subject: string; email: string | null; plan: PlanCode }[],
): Promise<UserRow[]> {
  if (rows.length === 0) {
    return [];
  }
  return await db
    .insertInto('users')
    .values([...rows])
    .returningAll()
    .execute();
}

/**
 * Deletes a user row (its searches, push subscriptions and outbox rows go with it by cascade)
 * and drops in-memory copies; false when there was none.
 */
export async function deleteUserById(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  await announceUserChange(db, id);
  return Number(result.numDeletedRows) > 0;
}
