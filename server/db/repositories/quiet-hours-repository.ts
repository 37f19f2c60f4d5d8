import type { Executor } from '../database.ts';
import type { UserRow } from '../schema.ts';
import { announceUserChanges } from './users-repository.ts';

/** An account's quiet hours as stored (see migration 0008). */
export type StoredQuietHours = Pick<
  UserRow,
  | 'quiet_hours_enabled'
  | 'quiet_hours_start'
  | 'quiet_hours_end'
  | 'quiet_hours_time_zone'
  | 'quiet_hours_preferred_at_store'
>;

/** Saves a user's quiet hours and announces the change (cached users are dropped). */
export async function updateQuietHours(
  db: Executor,
  userId: string,
  values: StoredQuietHours,
): Promise<UserRow> {
  const updated = await db
    .updateTable('users')
    .set({ ...values, updated_at: new Date() })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await announceUserChanges(db, [userId]);
  return updated;
}

/** The quiet hours of users who have them switched on, keyed by user id. */
export async function listEnabledQuietHours(
  db: Executor,
  userIds: readonly string[],
): Promise<Map<string, StoredQuietHours>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select([
      'id',
      'quiet_hours_enabled',
      'quiet_hours_start',
      'quiet_hours_end',
      'quiet_hours_time_zone',
      'quiet_hours_preferred_at_store',
    ])
    .where('id', 'in', [...new Set(userIds)])
    .where('quiet_hours_enabled', '=', true)
    .execute();
  return new Map(rows.map(({ id, ...hours }) => [id, hours]));
}
