import type { Db } from '#server/db/database.ts';
import { runRetryingTransaction } from '#server/db/retrying-transaction.ts';
import {
  insertAvailabilityEvents,
  insertReverseNeighbours,
  insertUnknownSnapshots,
  listSnapshots,
  upsertNeighbours,
  upsertSnapshots,
} from '#server/db/repositories/availability-repository.ts';
import { lockStoresForUpdate } from '#server/db/locks.ts';
import { findStoresByIds } from '#server/db/repositories/catalog-repository.ts';
import { fillStoreCoordinates } from '#server/db/repositories/store-directory-repository.ts';
import { markTargetsCovered } from '#server/db/repositories/watch-repository.ts';
import { recountChangedSearches } from '#server/db/repositories/search-inventory-repository.ts';
import {
  isTransitionToAvailable,
  type KnownPickupStatus,
  type PickupAnswer,
} from '#shared/upstream/index.ts';
import { listObservations, listOriginDistances } from '#shared/watch/engine/index.ts';
import { markCatalogChanged } from '#server/catalog/catalog-cache.ts';
import { notifyCatalogChanged } from '#server/catalog/catalog-notify.ts';
import { fileLearnedStores } from './learned-stores.ts';
import { enqueueRestockWave, type Restock } from './match-alerts.ts';

/** What one answer speaks for. */
export type AnswerScope = {
  countryCode: string;
  /** Product type of every part asked; a listed part outside it is not filed. */
  productByPart: ReadonlyMap<string, string>;
  /** Types whose every part was asked: their targets at the listed stores count as covered. */
  coveredProductIds: readonly string[];
  /** The store whose location was asked: the other listed stores become its neighbours. */
  originStoreId: string | null;
};

/** What one answer changed. */
export type AnswerReport = {
  storesSeen: number;
  changes: number;
  restocks: number;
  alertsEnqueued: number;
  /** Stores the catalog lacked, filed from the answer. */
  storesLearned: number;
};

/**
 * Applies one readable upstream answer in a single transaction: stores the catalog lacked,
 * snapshots, neighbour distances, the restock history, coverage of the targets it answered for, and the outbox
 * rows its restocks call for (all of them one wave: one message per search and channel). `unknown` parts keep their last known status.
 */
export async function applyPickupAnswer(
  db: Db,
  scope: AnswerScope,
  answer: PickupAnswer,
  options: { quietWindowMs: number },
): Promise<AnswerReport> {
  const observedAt = new Date(answer.observedAt);
  const listedIds = answer.stores.map((store) => store.storeNumber);
  // Run again from the start if PostgreSQL picks it as a deadlock's victim: an answer lost
  // there would delay its restocks' alerts by a cycle.
  const report = await runRetryingTransaction(db, async (trx) => {
    // Stores outside the catalog are filed from what the answer says of them (learned-stores.ts).
    const rows = await findStoresByIds(trx, listedIds);
    const known = new Set(rows.map((store) => store.store_id));
    // Stores the directory sync filed carry no coordinates until an answer gives them.
    const unplaced = new Set(
      rows.filter((row) => row.latitude === null).map((row) => row.store_id),
    );
    const learned = await fileLearnedStores(
      trx,
      scope.countryCode,
      answer.stores.filter((store) => !known.has(store.storeNumber)),
    );
    for (const storeId of learned) known.add(storeId);
    // A new store is in the catalog's lists: every process's caches reload when this commits.
    if (learned.length > 0) await notifyCatalogChanged(trx);
    const stores = answer.stores.filter((store) => known.has(store.storeNumber));
    const storeIds = stores.map((store) => store.storeNumber);
    await lockStoresForUpdate(trx, storeIds);
    if (unplaced.size > 0) {
      await fillStoreCoordinates(
        trx,
        stores
          .filter((store) => unplaced.has(store.storeNumber))
          .map((store) => ({ ...store, timeZone: store.facts?.timezone ?? null })),
      );
    }
    const parts = [
      ...new Set(
        stores.flatMap((store) =>
          store.parts
            .map((part) => part.partNumber)
            .filter((partNumber) => scope.productByPart.has(partNumber)),
        ),
      ),
    ];
    const previous = new Map(
      (await listSnapshots(trx, storeIds, parts)).map((row) => [
        `${row.store_id}|${row.part_number}`,
        row,
      ]),
    );

    const observations = listObservations(
      { stores, observedAt: answer.observedAt },
      {
        isFiled: (partNumber) => scope.productByPart.has(partNumber),
        findPrevious: (storeId, partNumber) => {
          const row = previous.get(`${storeId}|${partNumber}`);
          return row === undefined
            ? undefined
            : { status: row.status, observedAt: row.observed_at.getTime() };
        },
      },
    );
    const knownRows: Parameters<typeof upsertSnapshots>[1][number][] = [];
    const unknownRows: { store_id: string; part_number: string; observed_at: Date }[] = [];
    const changes: Parameters<typeof insertAvailabilityEvents>[1][number][] = [];
    for (const observation of observations) {
      const key = { store_id: observation.storeId, part_number: observation.partNumber };
      // An unknown status keeps the last known one; it is filed only where nothing is.
      if (observation.status === 'unknown') {
        unknownRows.push({ ...key, observed_at: observedAt });
        continue;
      }
      knownRows.push({
        ...key,
        status: observation.status,
        pickup_quote: observation.pickupQuote,
        observed_at: observedAt,
      });
      if (observation.isChange) {
        changes.push({
          ...key,
          from_status: observation.lastKnown,
          to_status: observation.status,
          pickup_quote: observation.pickupQuote,
          observed_at: observedAt,
        });
      }
    }
    await upsertSnapshots(trx, knownRows);
    await insertUnknownSnapshots(trx, unknownRows);
    const events = await insertAvailabilityEvents(trx, changes);

    const origin = scope.originStoreId;
    if (origin !== null && known.has(origin)) {
      const neighbours = listOriginDistances({ stores }, origin).flatMap(({ storeId, miles }) =>
        miles === null ? [] : [{ neighbour_store_id: storeId, distance_miles: miles }],
      );
      await upsertNeighbours(trx, origin, neighbours, observedAt);
      await insertReverseNeighbours(trx, origin, neighbours, observedAt);
    }
    for (const productId of scope.coveredProductIds) {
      await markTargetsCovered(trx, {
        country_code: scope.countryCode,
        product_id: productId,
        store_ids: storeIds,
        covered_at: observedAt,
      });
    }

    // Every restock of this answer is one wave: each search hears about all of it at once.
    const restocks: Restock[] = [];
    for (const event of events) {
      const fromStatus = event.from_status as KnownPickupStatus | null;
      if (!isTransitionToAvailable(fromStatus, event.to_status as KnownPickupStatus)) continue;
      restocks.push({
        eventId: String(event.id),
        storeId: event.store_id,
        partNumber: event.part_number,
        pickupQuote: event.pickup_quote,
        observedAt: event.observed_at,
        productId: scope.productByPart.get(event.part_number)!,
        countryCode: scope.countryCode,
      });
    }
    const alertsEnqueued = await enqueueRestockWave(trx, restocks, options.quietWindowMs);
    // Last, holding nothing else it could wait on: the searches' counts lock their rows.
    await recountChangedSearches(trx);
    return {
      storesSeen: stores.length,
      changes: events.length,
      restocks: restocks.length,
      alertsEnqueued,
      storesLearned: learned.length,
    };
  });
  if (report.storesLearned > 0) markCatalogChanged();
  return report;
}
