import { sql, type Selectable } from 'kysely';
import { PLANS } from '#shared/domain/plans.ts';
import type { Executor } from '#server/db/database.ts';
import type { UserChannelKind, UserChannelsTable } from '#server/db/schema.ts';

/** A stored channel row. */
export type UserChannelRow = Selectable<UserChannelsTable>;

/** Failed attempts in a row after which a channel is paused rather than tried again. */
export const PAUSE_AFTER_FAILURES = 5;

/** Channels are for every paid plan. */
const PAID_PLAN_CODES = PLANS.filter((plan) => plan.monthlyCost > 0).map((plan) => plan.code);

/** The user's channels, oldest first. */
export async function listUserChannels(db: Executor, userId: string): Promise<UserChannelRow[]> {
  return await db
    .selectFrom('user_channels')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** One of the user's channels; undefined when missing or someone else's. */
export async function findUserChannel(
  db: Executor,
  userId: string,
  channelId: string,
): Promise<UserChannelRow | undefined> {
  return await db
    .selectFrom('user_channels')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', channelId)
    .executeTakeFirst();
}

/** A channel by id whoever owns it (delivery checks the owner against the outbox row). */
export async function findChannelById(
  db: Executor,
  channelId: string,
): Promise<UserChannelRow | undefined> {
  return await db
    .selectFrom('user_channels')
    .selectAll()
    .where('id', '=', channelId)
    .executeTakeFirst();
}

/** How many channels the user has. */
export async function countUserChannels(db: Executor, userId: string): Promise<number> {
  const row = await db
    .selectFrom('user_channels')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Stores a new channel. */
export async function insertUserChannel(
  db: Executor,
  channel: {
    userId: string;
    kind: UserChannelKind;
    label: string;
    settings: Record<string, unknown>;
    secret: Record<string, unknown>;
  },
): Promise<UserChannelRow> {
  return await db
    .insertInto('user_channels')
    .values({
      user_id: channel.userId,
      kind: channel.kind,
      label: channel.label,
      settings: JSON.stringify(channel.settings),
      secret: JSON.stringify(channel.secret),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes one of the user's channels; false when they have none with that id. */
export async function deleteUserChannel(
  db: Executor,
  userId: string,
  channelId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('user_channels')
    .where('user_id', '=', userId)
    .where('id', '=', channelId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A delivered message: the failure count starts over. */
export async function recordChannelSuccess(
  db: Executor,
  channelId: string,
  settings?: Record<string, unknown>,
): Promise<void> {
  await db
    .updateTable('user_channels')
    .set({
      consecutive_failures: 0,
      last_success_at: new Date(),
      ...(settings === undefined ? {} : { settings: JSON.stringify(settings) }),
    })
    .where('id', '=', channelId)
    .execute();
}

/**
 * A failed attempt: counts it and pauses the channel at PAUSE_AFTER_FAILURES in a row, in one
 * statement so concurrent workers cannot both miss the threshold. Answers whether it is paused.
 */
export async function recordChannelFailure(
  db: Executor,
  channelId: string,
  failure: string,
): Promise<boolean> {
  const row = await db
    .updateTable('user_channels')
    .set({
      consecutive_failures: sql<number>`consecutive_failures + 1`,
      last_failure: failure,
      last_failure_at: new Date(),
      paused_at: sql<Date | null>`case when paused_at is null and consecutive_failures + 1 >= ${PAUSE_AFTER_FAILURES} then now() else paused_at end`,
      pause_reason: sql<
        string | null
      >`case when paused_at is null and consecutive_failures + 1 >= ${PAUSE_AFTER_FAILURES} then ${`Paused after ${PAUSE_AFTER_FAILURES} failed deliveries in a row. Last: ${failure}`} else pause_reason end`,
    })
    .where('id', '=', channelId)
    .returning('paused_at')
    .executeTakeFirst();
  return row?.paused_at !== null && row?.paused_at !== undefined;
}

/** A successful test turns a paused channel back on. */
export async function resumeUserChannel(db: Executor, channelId: string): Promise<void> {
  await db
    .updateTable('user_channels')
    .set({ paused_at: null, pause_reason: null, consecutive_failures: 0 })
    .where('id', '=', channelId)
    .execute();
}

/** The ids of the user's channels a search does not use. */
export async function listExcludedChannelIds(db: Executor, searchId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('search_channel_exclusions')
    .select('channel_id')
    .where('search_id', '=', searchId)
    .execute();
  return new Set(rows.map((row) => row.channel_id));
}

/** Replaces a search's exclusions (inside the caller's transaction). */
export async function replaceExcludedChannels(
  db: Executor,
  searchId: string,
  channelIds: readonly string[],
): Promise<void> {
  await db.deleteFrom('search_channel_exclusions').where('search_id', '=', searchId).execute();
  if (channelIds.length === 0) return;
  await db
    .insertInto('search_channel_exclusions')
    .values(channelIds.map((channelId) => ({ search_id: searchId, channel_id: channelId })))
    .execute();
}

/**
 * The active channels each search sends to (its owner's, on a paid plan, not paused, not
 * excluded for the search), in one statement for a whole restock's candidates.
 */
export async function listChannelsForSearches(
  db: Executor,
  searchIds: readonly string[],
): Promise<Map<string, { id: string; kind: UserChannelKind }[]>> {
  const bySearch = new Map<string, { id: string; kind: UserChannelKind }[]>();
  if (searchIds.length === 0) return bySearch;
  const rows = await db
    .selectFrom('searches as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('user_channels as c', 'c.user_id', 's.user_id')
    .select(['s.id as search_id', 'c.id', 'c.kind'])
    .where('s.id', 'in', searchIds)
    .where('u.plan', 'in', PAID_PLAN_CODES)
    .where('c.paused_at', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('search_channel_exclusions as x')
            .select('x.channel_id')
            .whereRef('x.search_id', '=', 's.id')
            .whereRef('x.channel_id', '=', 'c.id'),
        ),
      ),
    )
    .orderBy('c.created_at')
    .execute();
  for (const row of rows) {
    bySearch.set(row.search_id, [
      ...(bySearch.get(row.search_id) ?? []),
      { id: row.id, kind: row.kind },
    ]);
  }
  return bySearch;
}

/** The buy page path of a model's product type (e.g. /shop/buy-iphone/iphone-18-pro). */
export async function findBuyPagePath(
  db: Executor,
  countryCode: string,
  partNumber: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('product_models as m')
    .innerJoin('product_types as t', 't.product_id', 'm.product_id')
    .select('t.buy_page')
    .where('m.country_code', '=', countryCode)
    .where('m.part_number', '=', partNumber)
    .executeTakeFirst();
  return row?.buy_page ?? null;
}
