import { describe, expect, it } from 'vitest';
import { selectAlertChannels, type AlertRecipient } from '#shared/watch/alert-channels.ts';
import { isAlertAllowed, type StatusChange } from '#shared/watch/quiet-window.ts';

const MINUTE = 60_000;
const WINDOW = 30 * MINUTE;

function at(minutes: number, status: StatusChange['status']): StatusChange {
  return { at: minutes * MINUTE, status };
}

describe('quiet window', () => {
  it('alerts the first time a search hears about a part at a store', () => {
    expect(
      isAlertAllowed({ lastAlertedAt: null, changesSince: [], now: 0, windowMs: WINDOW }),
    ).toBe(true);
  });

  it('stays quiet when stock flaps back within the window', () => {
    const changes = [at(5, 'unavailable'), at(10, 'available')];
    expect(
      isAlertAllowed({
        lastAlertedAt: 0,
        changesSince: changes,
        now: 10 * MINUTE,
        windowMs: WINDOW,
      }),
    ).toBe(false);
  });

  it('stays quiet however long a run of short flaps lasts', () => {
    const changes: StatusChange[] = [];
    for (let minute = 5; minute < 300; minute += 10) {
      changes.push(at(minute, 'unavailable'), at(minute + 5, 'available'));
    }
    const last = changes[changes.length - 1];
    expect(
      isAlertAllowed({ lastAlertedAt: 0, changesSince: changes, now: last.at, windowMs: WINDOW }),
    ).toBe(false);
  });

  it('alerts again after the part was unavailable for longer than the window', () => {
    const changes = [at(5, 'unavailable'), at(40, 'available')];
    expect(
      isAlertAllowed({
        lastAlertedAt: 0,
        changesSince: changes,
        now: 40 * MINUTE,
        windowMs: WINDOW,
      }),
    ).toBe(true);
  });

  it('counts a long unavailability anywhere since the last alert, even if short flaps followed', () => {
    const changes = [
      at(5, 'unavailable'),
      at(50, 'available'),
      at(52, 'unavailable'),
      at(55, 'available'),
    ];
    expect(
      isAlertAllowed({
        lastAlertedAt: 0,
        changesSince: changes,
        now: 55 * MINUTE,
        windowMs: WINDOW,
      }),
    ).toBe(true);
  });

  it('treats ineligible like unavailable and ignores changes before the last alert', () => {
    const changes = [at(-100, 'unavailable'), at(5, 'ineligible'), at(36, 'available')];
    expect(
      isAlertAllowed({
        lastAlertedAt: 0,
        changesSince: changes,
        now: 36 * MINUTE,
        windowMs: WINDOW,
      }),
    ).toBe(true);
    const early = [
      at(-100, 'unavailable'),
      at(-1, 'available'),
      at(20, 'unavailable'),
      at(25, 'available'),
    ];
    expect(
      isAlertAllowed({ lastAlertedAt: 0, changesSince: early, now: 25 * MINUTE, windowMs: WINDOW }),
    ).toBe(false);
  });

  it('needs strictly longer than the window', () => {
    const changes = [at(0.5, 'unavailable'), at(30.5, 'available')];
    expect(
      isAlertAllowed({
        lastAlertedAt: 0,
        changesSince: changes,
        now: 30.5 * MINUTE,
        windowMs: WINDOW,
      }),
    ).toBe(false);
  });
});

describe('alert channels', () => {
  const premium: AlertRecipient = {
    plan: 'best',
    isNotificationsEnabled: true,
    hasEmail: true,
    hasPhone: true,
    isTextOptedOut: false,
    hasPushSubscription: false,
    isEmailWanted: true,
    isTextWanted: true,
  };

  it('sends email and text to a Premium search that wants both', () => {
    expect(selectAlertChannels(premium)).toEqual(['email', 'text']);
  });

  it('sends nothing when the account switch is off', () => {
    expect(
      selectAlertChannels({ ...premium, isNotificationsEnabled: false, hasPushSubscription: true }),
    ).toEqual([]);
  });

  it('keeps text for Premium and email for paid plans', () => {
    expect(selectAlertChannels({ ...premium, plan: 'better' })).toEqual(['email']);
    expect(selectAlertChannels({ ...premium, plan: 'good' })).toEqual([]);
    expect(selectAlertChannels({ ...premium, plan: 'good', hasPushSubscription: true })).toEqual([
      'push',
    ]);
  });

  it('honours STOP, missing contact details and the search flags', () => {
    expect(selectAlertChannels({ ...premium, isTextOptedOut: true })).toEqual(['email']);
    expect(selectAlertChannels({ ...premium, hasPhone: false, hasEmail: false })).toEqual([]);
    expect(selectAlertChannels({ ...premium, isEmailWanted: false, isTextWanted: false })).toEqual(
      [],
    );
  });
});
