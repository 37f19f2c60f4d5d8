import type { Executor } from '#server/db/database.ts';
import { sortNearestFirst } from './alert-payload.ts';
import type { AlertItem, AlertPayload } from './alert-types.ts';

/**
 * Looks each pair of a message up at send time (issue 42): a model no longer available since
 * it was seen gets `goneAt`, the moment the restock history says it went, and the message
 * marks it "gone at 10:42" instead of sending people to an empty shelf. Pairs still there
 * come first, nearest first. `isAllGone` lets the caller drop a message with nothing left.
 * `unknown` (a failed check) is never taken for gone: the snapshot keeps the last known status.
 */
export async function markVanishedStock(
  db: Executor,
  payload: AlertPayload,
): Promise<{ payload: AlertPayload; isAllGone: boolean }> {
  const storeIds = [...new Set(payload.items.map((item) => item.storeId))];
  const parts = [...new Set(payload.items.map((item) => item.partNumber))];
  const rows = await db
    .selectFrom('availability_snapshots')
    .select(['store_id', 'part_number', 'status', 'changed_at'])
    .where('store_id', 'in', storeIds)
    .where('part_number', 'in', parts)
    .execute();
  const byPair = new Map(rows.map((row) => [`${row.store_id}|${row.part_number}`, row]));
  const items = payload.items.map((item): AlertItem => {
    const now = byPair.get(`${item.storeId}|${item.partNumber}`);
    const isGone =
      now !== undefined &&
      (now.status === 'unavailable' || now.status === 'ineligible') &&
      now.changed_at.getTime() > new Date(item.observedAt).getTime();
    return { ...item, goneAt: isGone ? now.changed_at.toISOString() : null };
  });
  return {
    payload: { ...payload, items: sortNearestFirst(items) },
    isAllGone: items.every((item) => item.goneAt != null),
  };
}
