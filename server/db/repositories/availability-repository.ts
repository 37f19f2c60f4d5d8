import type { Selectable } from 'kysely';
import type { Executor } from '../database.ts';
import type { AvailabilitySnapshotsTable } from '../schema.ts';

/** A snapshot row. */
export type SnapshotRow = Selectable<AvailabilitySnapshotsTable>;

/** Latest statuses of the given parts at the given stores. */
export async function listSnapshots(
  db: Executor,
  storeIds: readonly string[],
  partNumbers: readonly string[],
): Promise<SnapshotRow[]> {
  if (storeIds.length === 0 || partNumbers.length === 0) {
    return [];
  }
  return await db
    .selectFrom('availability_snapshots')
    .selectAll()
    .where('store_id', 'in', storeIds)
    .where('part_number', 'in', partNumbers)
    .execute();
}

/** Neighbours of a store within `maxMiles` (any distance when null), nearest first. */
export async function listNeighbours(
  db: Executor,
  storeId: string,
  maxMiles: number | null,
): Promise<{ neighbour_store_id: string; distance_miles: number }[]> {
  let query = db
    .selectFrom('store_neighbours')
    .select(['neighbour_store_id', 'distance_miles'])
    .where('store_id', '=', storeId)
    .where('neighbour_store_id', '!=', storeId);
  if (maxMiles !== null) {
    query = query.where('distance_miles', '<=', maxMiles);
  }
  return await query.orderBy('distance_miles').execute();
}

/** Count of available models per (product type, store), for the landing page. */
export async function countAvailableByProductAndStore(
  db: Executor,
): Promise<{ product_id: string; store_id: string; product_count: number }[]> {
  return await db
    .selectFrom('availability_snapshots as s')
    .innerJoin('stores', 'stores.store_id', 's.store_id')
    .innerJoin('countries', 'countries.locale_code', 'stores.country_locale')
    .innerJoin('product_models as m', (join) =>
      join
        .onRef('m.part_number', '=', 's.part_number')
        .onRef('m.country_code', '=', 'countries.country_code'),
    )
    .select(['m.product_id', 's.store_id'])
    .select((eb) => eb.fn.countAll<number>().as('product_count'))
    .where('s.status', '=', 'available')
    .groupBy(['m.product_id', 's.store_id'])
    .orderBy('m.product_id')
    .orderBy('product_count', 'desc')
    .execute();
}

/** Records the latest status of parts at a store (the watch engine writes these). */
export async function upsertSnapshots(
  db: Executor,
  rows: readonly {
    store_id: string;
    part_number: string;
    status: SnapshotRow['status'];
    pickup_quote: string | null;
    observed_at: Date;
  }[],
): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  await db
    .insertInto('availability_snapshots')
    .values(rows.map((row) => ({ ...row, changed_at: row.observed_at })))
    .onConflict((conflict) =>
      conflict.columns(['store_id', 'part_number']).doUpdateSet((eb) => ({
        status: eb.ref('excluded.status'),
        pickup_quote: eb.ref('excluded.pickup_quote'),
        observed_at: eb.ref('excluded.observed_at'),
        changed_at: eb
          .case()
          .when('availability_snapshots.status', '=', eb.ref('excluded.status'))
          .then(eb.ref('availability_snapshots.changed_at'))
          .else(eb.ref('excluded.changed_at'))
          .end(),
      })),
    )
    .execute();
}

/** Records how far neighbouring stores are from a store. */
export async function upsertNeighbours(
  db: Executor,
  storeId: string,
  neighbours: readonly { neighbour_store_id: string; distance_miles: number }[],
  observedAt: Date,
): Promise<void> {
  if (neighbours.length === 0) {
    return;
  }
  await db
    .insertInto('store_neighbours')
    .values(neighbours.map((n) => ({ store_id: storeId, ...n, observed_at: observedAt })))
    .onConflict((conflict) =>
      conflict.columns(['store_id', 'neighbour_store_id']).doUpdateSet((eb) => ({
        distance_miles: eb.ref('excluded.distance_miles'),
        observed_at: eb.ref('excluded.observed_at'),
      })),
    )
    .execute();
}
