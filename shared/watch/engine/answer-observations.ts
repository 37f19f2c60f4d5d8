import {
  isStatusChange,
  isTransitionToAvailable,
  type KnownPickupStatus,
  type PickupAnswer,
  type PickupStatus,
} from '#shared/upstream/index.ts';
import { convertToMiles } from '#shared/watch/types.ts';

// Applying an answer, the part every host shares: which statuses it may file, which are
// changes for the restock history, which are restocks that may alert, and what it teaches
// about coverage and distances. Each host then writes the result to its own storage.

/** What a host has on file for one (store, part). */
export type PreviousObservation = { status: PickupStatus; observedAt: number };

/** One (store, part) status an answer reports, judged against what is on file. */
export type Observation = {
  storeId: string;
  /** The name the answer gives the store. */
  storeName: string;
  partNumber: string;
  status: PickupStatus;
  pickupQuote: string | null;
  /** The last known status on file (an `unknown` on file counts as none). */
  lastKnown: KnownPickupStatus | null;
  /** True when it belongs in the restock history. */
  isChange: boolean;
  /** True when stock just became available: the only change that alerts. */
  isRestock: boolean;
};

/**
 * The statuses an answer reports for the parts a host files, each judged against what is on
 * file. An answer older than what is on file (a slow request overtaken) files nothing there.
 */
export function listObservations(
  answer: Pick<PickupAnswer, 'stores' | 'observedAt'>,
  options: {
    isFiled: (partNumber: string) => boolean;
    findPrevious: (storeId: string, partNumber: string) => PreviousObservation | undefined;
    /** Only these stores (the ones a host can file); every listed store when left out. */
    storeIds?: ReadonlySet<string>;
  },
): Observation[] {
  const observations: Observation[] = [];
  for (const store of answer.stores) {
    if (options.storeIds !== undefined && !options.storeIds.has(store.storeNumber)) continue;
    for (const part of store.parts) {
      if (!options.isFiled(part.partNumber)) continue;
      const previous = options.findPrevious(store.storeNumber, part.partNumber);
      if (previous !== undefined && previous.observedAt > answer.observedAt) continue;
      const lastKnown =
        previous === undefined || previous.status === 'unknown' ? null : previous.status;
      observations.push({
        storeId: store.storeNumber,
        storeName: store.name,
        partNumber: part.partNumber,
        status: part.status,
        pickupQuote: part.pickupQuote,
        lastKnown,
        isChange: isStatusChange(lastKnown, part.status),
        isRestock: isTransitionToAvailable(lastKnown, part.status),
      });
    }
  }
  return observations;
}

/** The product types whose every part was answered or refused: their targets are covered. */
export function findCoveredProductIds(
  models: readonly { part_number: string; product_id: string }[],
  productIds: readonly string[],
  settledParts: ReadonlySet<string>,
): string[] {
  return productIds.filter((productId) =>
    models.every((model) => model.product_id !== productId || settledParts.has(model.part_number)),
  );
}

/** Apple's distances from the asked store to the other stores it listed, in miles. */
export function listOriginDistances(
  answer: Pick<PickupAnswer, 'stores'>,
  originStoreId: string,
): { storeId: string; miles: number | null }[] {
  return answer.stores
    .filter((store) => store.storeNumber !== originStoreId)
    .map((store) => ({
      storeId: store.storeNumber,
      miles: store.distance === null ? null : convertToMiles(store.distance),
    }));
}
