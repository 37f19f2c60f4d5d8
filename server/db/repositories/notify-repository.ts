import type { Selectable } from 'kysely';
import type { Executor } from '#server/db/database.ts';
import { announceSearchChange } from './searches-repository.ts';
import type { PushSubscriptionsTable, SearchRow, UserRow } from '#server/db/schema.ts';

/** A stored browser push subscription. */
export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;

/** The user and search an outbox row is for, as they are now (either may be gone). */
export type DeliveryTarget = { user: UserRow | undefined; search: SearchRow | undefined };

/**
 * The delivery targets of claimed rows in two statements whatever their number, keyed by
 * deliveryTargetKey: a burst of alerts reads its users and searches once, not per row.
 */
export async function findDeliveryTargets(
  db: Executor,
  rows: readonly { user_id: string; search_id: string | null }[],
): Promise<Map<string, DeliveryTarget>> {
  const userIds = [...new Set(rows.map((row) => row.user_id))];
  const searchIds = [
    ...new Set(rows.flatMap((row) => (row.search_id === null ? [] : [row.search_id]))),
  ];
  const users =
    userIds.length === 0
      ? []
      : await db.selectFrom('users').selectAll().where('id', 'in', userIds).execute();
  const searches =
    searchIds.length === 0
      ? []
      : await db.selectFrom('searches').selectAll().where('id', 'in', searchIds).execute();
  const usersById = new Map(users.map((user) => [user.id, user]));
  const searchesById = new Map(searches.map((search) => [search.id, search]));
  const targets = new Map<string, DeliveryTarget>();
  for (const row of rows) {
    const search = row.search_id === null ? undefined : searchesById.get(row.search_id);
    targets.set(deliveryTargetKey(row), {
      user: usersById.get(row.user_id),
      // A search is only ever delivered to its owner.
      search: search?.user_id === row.user_id ? search : undefined,
    });
  }
  return targets;
}

/** The key of a row's target in findDeliveryTargets' answer. */
export function deliveryTargetKey(row: { user_id: string; search_id: string | null }): string {
  return `${row.user_id}|${row.search_id ?? ''}`;
}

/** Turns email alerts off for a search; false when the search does not exist. */
export async function disableSearchEmailUpdates(db: Executor, searchId: string): Promise<boolean> {
  const result = await db
    .updateTable('searches')
    .set({ send_email_updates: false, updated_at: new Date() })
    .where('id', '=', searchId)
    .executeTakeFirst();
  announceSearchChange({ searchId });
  return result.numUpdatedRows > 0n;
}

/** Whether a search exists and still sends email (for the confirmation page). */
export async function findSearchEmailState(
  db: Executor,
  searchId: string,
): Promise<{ isEmailOn: boolean } | undefined> {
  const row = await db
    .selectFrom('searches')
    .select('send_email_updates')
    .where('id', '=', searchId)
    .executeTakeFirst();
  return row === undefined ? undefined : { isEmailOn: row.send_email_updates };
}

/** Sets the carrier-level opt-out (STOP/START) of every account with this phone number. */
export async function setTextOptOutByPhone(
  db: Executor,
  phoneNumber: string,
  isOptedOut: boolean,
): Promise<number> {
  const result = await db
    .updateTable('users')
    .set({ is_text_opted_out: isOptedOut, updated_at: new Date() })
    .where('phone_number', '=', phoneNumber)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The user's push subscriptions, oldest first. */
export async function listPushSubscriptions(
  db: Executor,
  userId: string,
): Promise<PushSubscriptionRow[]> {
  return await db
    .selectFrom('push_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/**
 * Saves a subscription, or the new keys of one this user saved before; undefined when the
 * endpoint is another user's, which keeps it (one statement, so no race can move it).
 */
export async function upsertPushSubscription(
  db: Executor,
  userId: string,
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } },
): Promise<PushSubscriptionRow | undefined> {
  const keys = JSON.stringify(subscription.keys);
  return await db
    .insertInto('push_subscriptions')
    .values({ user_id: userId, endpoint: subscription.endpoint, keys })
    .onConflict((conflict) =>
      conflict
        .column('endpoint')
        .doUpdateSet({ keys })
        .where('push_subscriptions.user_id', '=', userId),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Removes one of the user's subscriptions; false when they had none with that endpoint. */
export async function deleteUserPushSubscription(
  db: Executor,
  userId: string,
  endpoint: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', userId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Drops a subscription the push service says is gone (HTTP 404/410). */
export async function deletePushSubscriptionById(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
}
