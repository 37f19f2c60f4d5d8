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
