import type { KnownPickupStatus, PickupStatus } from './types.ts';

// The status model behind snapshots and alerts. `unknown` is the absence of news: it never
// overwrites a known status, never counts as a change and never raises an alert, so a
// failed poll can neither fake a sell-out nor re-alert when the next good poll arrives.

/** True when the status says something definite about the shelf. */
export function isKnownStatus(status: PickupStatus): status is KnownPickupStatus {
  return status !== 'unknown';
}

/** The status to keep after an observation: the new one if known, else the last known one. */
export function mergeObservedStatus(
  lastKnown: KnownPickupStatus | null,
  observed: PickupStatus,
): KnownPickupStatus | null {
  return isKnownStatus(observed) ? observed : lastKnown;
}

/** True when an observation changes what we know and belongs in the restock history. */
export function isStatusChange(
  lastKnown: KnownPickupStatus | null,
  observed: PickupStatus,
): boolean {
  return isKnownStatus(observed) && observed !== lastKnown;
}

/**
 * True when stock just became available: the only change that alerts. Pass the last *known*
 * status (see mergeObservedStatus); `null` means never seen, and a first sighting that is
 * already available counts, since the watcher has not told anyone yet.
 */
export function isTransitionToAvailable(
  lastKnown: KnownPickupStatus | null,
  observed: PickupStatus,
): boolean {
  return observed === 'available' && lastKnown !== 'available';
}

/** True when stock went away; `unknown` never counts as going unavailable. */
export function isTransitionFromAvailable(
  lastKnown: KnownPickupStatus | null,
  observed: PickupStatus,
): boolean {
  return lastKnown === 'available' && isKnownStatus(observed) && observed !== 'available';
}
