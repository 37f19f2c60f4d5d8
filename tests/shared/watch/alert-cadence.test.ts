import { describe, expect, it } from 'vitest';
import { decideCadence } from '#shared/watch/alert-cadence.ts';

const MINUTE = 60_000;
const CADENCE = 15 * MINUTE;

describe('alert cadence', () => {
  it('sends the first wave of a search at once', () => {
    expect(
      decideCadence({
        lastReleaseAt: null,
        pendingReleaseAt: null,
        now: 0,
        cadenceMs: CADENCE,
        isUrgent: false,
      }),
    ).toEqual({ joinsPending: false, releaseAt: 0 });
  });

  it('holds a wave inside the cadence until the cadence has passed since the last message', () => {
    expect(
      decideCadence({
        lastReleaseAt: 0,
        pendingReleaseAt: null,
        now: 4 * MINUTE,
        cadenceMs: CADENCE,
        isUrgent: false,
      }),
    ).toEqual({ joinsPending: false, releaseAt: 15 * MINUTE });
  });

  it('adds later waves to the message already waiting, keeping its release time', () => {
    expect(
      decideCadence({
        lastReleaseAt: 15 * MINUTE,
        pendingReleaseAt: 15 * MINUTE,
        now: 9 * MINUTE,
        cadenceMs: CADENCE,
        isUrgent: false,
      }),
    ).toEqual({ joinsPending: true, releaseAt: 15 * MINUTE });
  });

  it('releases the waiting message at once for a preferred model at the search’s own store', () => {
    expect(
      decideCadence({
        lastReleaseAt: 15 * MINUTE,
        pendingReleaseAt: 15 * MINUTE,
        now: 9 * MINUTE,
        cadenceMs: CADENCE,
        isUrgent: true,
      }),
    ).toEqual({ joinsPending: true, releaseAt: 9 * MINUTE });
    expect(
      decideCadence({
        lastReleaseAt: 0,
        pendingReleaseAt: null,
        now: MINUTE,
        cadenceMs: CADENCE,
        isUrgent: true,
      }),
    ).toEqual({ joinsPending: false, releaseAt: MINUTE });
  });

  it('sends at once after a calm spell, and every wave at once with a cadence of 0', () => {
    expect(
      decideCadence({
        lastReleaseAt: 0,
        pendingReleaseAt: null,
        now: CADENCE,
        cadenceMs: CADENCE,
        isUrgent: false,
      }),
    ).toEqual({ joinsPending: false, releaseAt: CADENCE });
    expect(
      decideCadence({
        lastReleaseAt: 0,
        pendingReleaseAt: null,
        now: MINUTE,
        cadenceMs: 0,
        isUrgent: false,
      }),
    ).toEqual({ joinsPending: false, releaseAt: MINUTE });
  });
});
