// Checks that decide whether an answer may be believed before anything is written from it.
// An all-negative answer looks the same as a silent block or a broken query, so working
// checkers add a "control" part that is almost always in stock and distrust the zeros when it
// reads unavailable everywhere (see docs/architecture.md, "Control part").

import type { PickupAnswer, StoreAvailability } from './types.ts';

/** What the control part says about an answer. */
export type ControlVerdict =
  /** No control part was asked, or no listed store reported it: nothing to judge by. */
  | 'unchecked'
  /** The control part is available at one listed store or more. */
  | 'plausible'
  /** The control part is reported at listed stores and available at none: treat as unknown. */
  | 'implausible';

/**
 * Judges an answer by its control part. A control `ineligible` at every store reporting it
 * tells nothing: that is how Apple answers a retired part, not a broken answer (the engine
 * counts it towards retiring the control instead).
 */
export function judgeByControlPart(
  stores: readonly StoreAvailability[],
  controlPart: string | null,
): ControlVerdict {
  if (controlPart === null) return 'unchecked';
  let isReported = false;
  let isEligibleSomewhere = false;
  for (const store of stores) {
    const line = store.parts.find((part) => part.partNumber === controlPart);
    if (line === undefined || line.status === 'unknown') continue;
    if (line.status === 'available') return 'plausible';
    isReported = true;
    if (line.status !== 'ineligible') isEligibleSomewhere = true;
  }
  return isReported && isEligibleSomewhere ? 'implausible' : 'unchecked';
}

/** What one answer says towards retiring parts (see sortRetirementEvidence). */
export type RetirementEvidence = {
  /** Reported `ineligible` at every listed store. */
  ineligible: string[];
  /** Reported `available` or `unavailable` at a listed store: sold there. */
  sold: string[];
};

/**
 * Sorts the asked parts by what the answer says about their retirement. Apple keeps answering
 * a retired part, `ineligible` at every store ("an all-ineligible SKU is retired or invalid,
 * not 0% available": jhdavis789/apple-availability-dashboard, 2026-09-07); one store's
 * `ineligible` beside others' `unavailable` is that store's (the AE capture's Dubai Mall). A
 * part some store left out is in neither list.
 */
export function sortRetirementEvidence(
  stores: readonly StoreAvailability[],
  askedParts: readonly string[],
): RetirementEvidence {
  const evidence: RetirementEvidence = { ineligible: [], sold: [] };
  if (stores.length === 0) return evidence;
  for (const partNumber of askedParts) {
    const statuses = stores.map(
      (store) => store.parts.find((part) => part.partNumber === partNumber)?.status ?? 'unknown',
    );
    if (statuses.every((status) => status === 'ineligible')) evidence.ineligible.push(partNumber);
    else if (statuses.some((status) => status === 'available' || status === 'unavailable')) {
      evidence.sold.push(partNumber);
    }
  }
  return evidence;
}

/**
 * Requested parts no listed store reported a status for. Apple leaves a part out of
 * `partsAvailability` when it does not know it there; such a part is never `unavailable`.
 */
export function findLeftOutParts(
  answer: Pick<PickupAnswer, 'stores'>,
  requestedParts: readonly string[],
): string[] {
  if (answer.stores.length === 0) return [];
  return requestedParts.filter((partNumber) =>
    answer.stores.every((store) => {
      const line = store.parts.find((part) => part.partNumber === partNumber);
      return line === undefined || line.status === 'unknown';
    }),
  );
}

/** Drops a part (the control, when nobody watches it) from every store of an answer. */
export function withoutPart(
  stores: readonly StoreAvailability[],
  partNumber: string,
): StoreAvailability[] {
  return stores.map((store) => ({
    ...store,
    parts: store.parts.filter((part) => part.partNumber !== partNumber),
  }));
}

/**
 * A part seen available at fewer than this share of the country's answering stores is no
 * control: an answer for an area it is not stocked in would be doubted for nothing (in a
 * launch week the "busiest" part may be one flip at one store).
 */
export const CONTROL_MIN_STORE_SHARE = 0.25;
/** ...and at fewer than this many stores. */
export const CONTROL_MIN_STORES = 3;

/**
 * The country's control part: the configured one, else the part seen available at the most
 * stores when that is broad enough to expect it in any area's answer; null for none. A part
 * Apple retired there is never the control: it would read as a broken answer everywhere.
 */
export function chooseControlPart(options: {
  configured: string | undefined;
  busiest: { partNumber: string; stores: number; observedStores: number } | undefined;
  isRetired?: (partNumber: string) => boolean;
}): string | null {
  const isRetired = options.isRetired ?? (() => false);
  if (options.configured !== undefined && !isRetired(options.configured)) {
    return options.configured;
  }
  const { busiest } = options;
  if (busiest === undefined || isRetired(busiest.partNumber)) return null;
  const isBroad =
    busiest.stores >= CONTROL_MIN_STORES &&
    busiest.stores >= busiest.observedStores * CONTROL_MIN_STORE_SHARE;
  return isBroad ? busiest.partNumber : null;
}
