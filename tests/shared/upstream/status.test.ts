import { describe, expect, it } from 'vitest';
import {
  isKnownStatus,
  isStatusChange,
  isTransitionFromAvailable,
  isTransitionToAvailable,
  mergeObservedStatus,
} from '#shared/upstream/status.ts';
import type { KnownPickupStatus, PickupStatus } from '#shared/upstream/types.ts';

// Feeds observations through the status model the way the snapshot layer does.
function countAlerts(observations: PickupStatus[]): number {
  let lastKnown: KnownPickupStatus | null = null;
  let alerts = 0;
  for (const observed of observations) {
    if (isTransitionToAvailable(lastKnown, observed)) alerts += 1;
    lastKnown = mergeObservedStatus(lastKnown, observed);
  }
  return alerts;
}

describe('status model', () => {
  it('alerts on unavailable or ineligible turning available, and on a first available sighting', () => {
    expect(isTransitionToAvailable('unavailable', 'available')).toBe(true);
    expect(isTransitionToAvailable('ineligible', 'available')).toBe(true);
    expect(isTransitionToAvailable(null, 'available')).toBe(true);
  });

  it('does not alert while stock stays available or for any other status', () => {
    expect(isTransitionToAvailable('available', 'available')).toBe(false);
    expect(isTransitionToAvailable('unavailable', 'unavailable')).toBe(false);
    expect(isTransitionToAvailable('unavailable', 'unknown')).toBe(false);
  });

  it('never treats unknown as a change to unavailable', () => {
    expect(isStatusChange('available', 'unknown')).toBe(false);
    expect(isTransitionFromAvailable('available', 'unknown')).toBe(false);
    expect(mergeObservedStatus('available', 'unknown')).toBe('available');
    expect(isKnownStatus('unknown')).toBe(false);
  });

  it('records real changes, including a sell-out', () => {
    expect(isStatusChange(null, 'unavailable')).toBe(true);
    expect(isStatusChange('available', 'unavailable')).toBe(true);
    expect(isTransitionFromAvailable('available', 'ineligible')).toBe(true);
    expect(isStatusChange('unavailable', 'unavailable')).toBe(false);
  });

  it('does not re-alert when a failed poll interrupts available stock', () => {
    expect(countAlerts(['unavailable', 'available', 'unknown', 'unknown', 'available'])).toBe(1);
  });

  it('alerts again after a genuine sell-out and restock', () => {
    expect(countAlerts(['available', 'unavailable', 'unknown', 'available'])).toBe(2);
  });
});
