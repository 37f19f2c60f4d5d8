import { sql, type Selectable } from 'kysely';
import type {
  AvailabilityEventsTable,
  AvailabilitySnapshotsTable,
} from '#server/db/availability-schema.ts';
import type { Executor } from '#server/db/database.ts';
import { refreshPairInventory, refreshSearchInventory } from './search-inventory-repository.ts';

/** A snapshot row. */
export type SnapshotRow = Selectable<AvailabilitySnapshotsTable>;
/** A restock-history row. */
export type AvailabilityEventRow = Selectable<AvailabilityEventsTable>;

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

/** Count of available models still sold, per (product type, store), for the landing page. */
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
    // A model retired in a country (still watched for older searches) is not shown as on offer.
    .where('m.retired_on', 'is', null)
    .groupBy(['m.product_id', 's.store_id'])
    .orderBy('m.product_id')
    .orderBy('product_count', 'desc')
    .execute();
}

/**
 * Records the latest status of parts at a store (the watch engine writes these), and keeps
 * what searches show available (search_inventory) in step with the pairs that flipped.
 */
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
  const storeIds = rows.map((row) => row.store_id);
  const partNumbers = rows.map((row) => row.part_number);
  const wasAvailable = new Set(
    (
      await db
        .selectFrom('availability_snapshots')
        .select(['store_id', 'part_number'])
        .where('status', '=', 'available')
        .where(
          sql<boolean>`(store_id, part_number) in (select * from unnest(${storeIds}::text[], ${partNumbers}::text[]))`,
        )
        .execute()
    ).map((row) => `${row.store_id}|${row.part_number}`),
  );
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
  await refreshPairInventory(
    db,
    rows.filter(
      (row) =>
        wasAvailable.has(`${row.store_id}|${row.part_number}`) !== (row.status === 'available'),
    ),
  );
}

/**
 * Records how far neighbouring stores are from a store; when a neighbour is new or its
 * distance changed, what the store's nearby-including searches show is recomputed.
 */
export async function upsertNeighbours(
  db: Executor,
  storeId: string,
  neighbours: readonly { neighbour_store_id: string; distance_miles: number }[],
  observedAt: Date,
): Promise<void> {
  if (neighbours.length === 0) {
    return;
  }
  const known = new Map(
    (
      await db
        .selectFrom('store_neighbours')
        .select(['neighbour_store_id', 'distance_miles'])
        .where('store_id', '=', storeId)
        .execute()
    ).map((row) => [row.neighbour_store_id, row.distance_miles]),
  );
  const isChanged = neighbours.some(
    (neighbour) => known.get(neighbour.neighbour_store_id) !== neighbour.distance_miles,
  );
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
  if (isChanged) await refreshSearchInventory(db, { nearbyOfStoreIds: [storeId] });
}

/** Records reverse distances (neighbour to store) where none is known yet; a store's own answer wins. */
export async function insertReverseNeighbours(
  db: Executor,
  storeId: string,
  neighbours: readonly { neighbour_store_id: string; distance_miles: number }[],
  observedAt: Date,
): Promise<void> {
  const rows = neighbours.filter((n) => n.neighbour_store_id !== storeId);
  if (rows.length === 0) {
    return;
  }
  const inserted = await db
    .insertInto('store_neighbours')
    .values(
      rows.map((n) => ({
        store_id: n.neighbour_store_id,
        neighbour_store_id: storeId,
        distance_miles: n.distance_miles,
        observed_at: observedAt,
      })),
    )
    .onConflict((conflict) => conflict.columns(['store_id', 'neighbour_store_id']).doNothing())
    .returning('store_id')
    .execute();
  // Stores that gained a neighbour: their nearby-including searches may show more now.
  await refreshSearchInventory(db, {
    nearbyOfStoreIds: [...new Set(inserted.map((row) => row.store_id))],
  });
}

/** Notes parts seen as `unknown` where nothing is known yet; a known status is never overwritten. */
export async function insertUnknownSnapshots(
  db: Executor,
  rows: readonly { store_id: string; part_number: string; observed_at: Date }[],
): Promise<void> {
  if (rows.length === 0) {
    return;
  }
  await db
    .insertInto('availability_snapshots')
    .values(
      rows.map((row) => ({
        ...row,
        status: 'unknown' as const,
        pickup_quote: null,
        changed_at: row.observed_at,
      })),
    )
    .onConflict((conflict) => conflict.columns(['store_id', 'part_number']).doNothing())
    .execute();
}

/** Appends status changes to the restock history; returns the rows with their ids. */
export async function insertAvailabilityEvents(
  db: Executor,
  rows: readonly Omit<AvailabilityEventRow, 'id'>[],
): Promise<AvailabilityEventRow[]> {
  if (rows.length === 0) {
    return [];
  }
  return await db
    .insertInto('availability_events')
    .values([...rows])
    .returningAll()
    .execute();
}

/** Changes of one part at one store after `after`, oldest first. */
export async function listEventsAfter(
  db: Executor,
  storeId: string,
  partNumber: string,
  after: Date,
): Promise<AvailabilityEventRow[]> {
  return await db
    .selectFrom('availability_events')
    .selectAll()
    .where('store_id', '=', storeId)
    .where('part_number', '=', partNumber)
    .where('observed_at', '>', after)
    .orderBy('observed_at')
    .orderBy('id')
    .execute();
}

/** Restock history of parts at stores since `since`, newest first, at most `limit` rows. */
export async function listEventsForStores(
  db: Executor,
  query: {
    storeIds: readonly string[];
    partNumbers: readonly string[];
    since: Date;
    limit: number;
  },
): Promise<AvailabilityEventRow[]> {
  if (query.storeIds.length === 0 || query.partNumbers.length === 0) {
    return [];
  }
  return await db
    .selectFrom('availability_events')
    .selectAll()
    .where('store_id', 'in', query.storeIds)
    .where('part_number', 'in', query.partNumbers)
    .where('observed_at', '>=', query.since)
    .orderBy('observed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit)
    .execute();
}

/** Transitions to available per UTC day since `since`, for the history chart. */
export async function countRestocksByDay(
  db: Executor,
  query: { storeIds: readonly string[]; partNumbers: readonly string[]; since: Date },
): Promise<{ day: string; restocks: number }[]> {
  if (query.storeIds.length === 0 || query.partNumbers.length === 0) {
    return [];
  }
  const day = sql<string>`to_char(observed_at at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom('availability_events')
    .select(day.as('day'))
    .select((eb) => eb.fn.countAll<number>().as('restocks'))
    .where('store_id', 'in', query.storeIds)
    .where('part_number', 'in', query.partNumbers)
    .where('to_status', '=', 'available')
    .where('observed_at', '>=', query.since)
    .groupBy(day)
    .execute();
  return rows.map((row) => ({ day: row.day, restocks: Number(row.restocks) }));
}

/** The nearest `perStore` known neighbours of each store, nearest first (the planner's coverage guess). */
export async function listNearestNeighbourIds(
  db: Executor,
  storeIds: readonly string[],
  perStore: number,
): Promise<Map<string, string[]>> {
  const byStore = new Map<string, string[]>();
  if (storeIds.length === 0) {
    return byStore;
  }
  const rows = await db
    .selectFrom('store_neighbours')
    .select(['store_id', 'neighbour_store_id'])
    .where('store_id', 'in', storeIds)
    .where((eb) => eb('store_id', '!=', eb.ref('neighbour_store_id')))
    .orderBy('store_id')
    .orderBy('distance_miles')
    .execute();
  for (const row of rows) {
    const list = byStore.get(row.store_id) ?? [];
    if (list.length < perStore) list.push(row.neighbour_store_id);
    byStore.set(row.store_id, list);
  }
  return byStore;
}
