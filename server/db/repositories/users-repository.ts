import type { Executor } from '../database.ts';
import type { PlanCode, UserRow } from '../schema.ts';

/** Finds the user of an identity, creating the row on first sight. */
export async function findOrCreateUserByIdentity(
  db: Executor,
  identity: { issuer: string; subject: string; email?: string },
): Promise<UserRow> {
  const inserted = await db
    .insertInto('users')
    .values({ issuer: identity.issuer, subject: identity.subject, email: identity.email ?? null })
    .onConflict((conflict) => conflict.columns(['issuer', 'subject']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted !== undefined) {
    return inserted;
  }
  return await db
    .selectFrom('users')
    .selectAll()
    .where('issuer', '=', identity.issuer)
    .where('subject', '=', identity.subject)
    .executeTakeFirstOrThrow();
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
  return await db
    .updateTable('users')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Changes a user's plan (billing webhooks and the admin command). */
export async function updateUserPlan(db: Executor, id: string, plan: PlanCode): Promise<void> {
  await db
    .updateTable('users')
    .set({ plan, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}
