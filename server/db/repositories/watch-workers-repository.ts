import type { Selectable } from 'kysely';
import type { Executor } from '../database.ts';
import type { WatchFreshnessTable } from '../schema.ts';

/** The freshness row as read. */
export type WatchFreshnessRow = Selectable<WatchFreshnessTable>;

/** Registers a worker or records that it is still alive, with its budget. */
export async function upsertWatchWorker(
  db: Executor,
  worker: { id: string; label: string; budgetPerMinute: number; seenAt: Date },
): Promise<void> {
  await db
    .insertInto('watch_workers')
    .values({
      id: worker.id,
      label: worker.label,
      budget_per_minute: worker.budgetPerMinute,
      started_at: worker.seenAt,
      last_seen_at: worker.seenAt,
    })
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet({
        budget_per_minute: worker.budgetPerMinute,
        last_seen_at: worker.seenAt,
      }),
    )
    .execute();
}

/** Removes a worker that stopped (a killed one ages out instead). */
export async function deleteWatchWorker(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('watch_workers').where('id', '=', id).execute();
}

/** Workers seen since `since`, and their budgets summed; stale rows older than that are removed. */
export async function summariseLiveWorkers(
  db: Executor,
  since: Date,
): Promise<{ workers: number; budgetPerMinute: number }> {
  await db.deleteFrom('watch_workers').where('last_seen_at', '<', since).execute();
  const row = await db
    .selectFrom('watch_workers')
    .select((eb) => [
      eb.fn.countAll<number>().as('workers'),
      eb.fn.coalesce(eb.fn.sum<number>('budget_per_minute'), eb.lit(0)).as('budget'),
    ])
    .executeTakeFirstOrThrow();
  return { workers: Number(row.workers), budgetPerMinute: Number(row.budget) };
}

/** Stores what the last planned cycle's budget gives. */
export async function saveWatchFreshness(
  db: Executor,
  freshness: Omit<WatchFreshnessRow, 'id'>,
): Promise<void> {
  await db
    .insertInto('watch_freshness')
    .values({ id: true, ...freshness })
    .onConflict((conflict) => conflict.column('id').doUpdateSet(freshness))
    .execute();
}

/** What the last planned cycle's budget gives, or undefined before the first cycle. */
export async function findWatchFreshness(db: Executor): Promise<WatchFreshnessRow | undefined> {
  return await db.selectFrom('watch_freshness').selectAll().executeTakeFirst();
}
