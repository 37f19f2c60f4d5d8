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

/** Judges an answer by its control part. */
export function judgeByControlPart(
  stores: readonly StoreAvailability[],
  controlPart: string | null,
): ControlVerdict {
  if (controlPart === null) return 'unchecked';
  let isReported = false;
  for (const store of stores) {
    const line = store.parts.find((part) => part.partNumber === controlPart);
    if (line === undefined || line.status === 'unknown') continue;
    if (line.status === 'available') return 'plausible';
    isReported = true;
  }
  return isReported ? 'implausible' : 'unchecked';
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
 * stores when that is broad enough to expect it in any area's answer; null for none.
 */
export function chooseControlPart(options: {
  configured: string | undefined;
  busiest: { partNumber: string; stores: number; observedStores: number } | undefined;
}): string | null {
  if (options.configured !== undefined) return options.configured;
  const { busiest } = options;
  if (busiest === undefined) return null;
  const isBroad =
    busiest.stores >= CONTROL_MIN_STORES &&
    busiest.stores >= busiest.observedStores * CONTROL_MIN_STORE_SHARE;
  return isBroad ? busiest.partNumber : null;
}
