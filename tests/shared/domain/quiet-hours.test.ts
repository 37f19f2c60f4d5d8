import { describe, expect, it } from 'vitest';
import {
  findQuietHoursEnd,
  isKnownTimeZone,
  listTimeZones,
  parseClockTime,
} from '#shared/domain/quiet-hours.ts';

const NIGHT = { start: '22:00', end: '07:00', timeZone: 'America/New_York' };

describe('quiet hours', () => {
  it('reads 24-hour clock times and refuses anything else', () => {
    expect(parseClockTime('00:00')).toBe(0);
    expect(parseClockTime('07:30')).toBe(450);
    expect(parseClockTime('23:59')).toBe(1439);
    for (const bad of ['24:00', '7:30', '07:60', '', '07:30:00', 'noon']) {
      expect(parseClockTime(bad)).toBeUndefined();
    }
  });

  it('knows IANA zones and lists them with UTC', () => {
    expect(isKnownTimeZone('Europe/Paris')).toBe(true);
    expect(isKnownTimeZone('UTC')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
    expect(isKnownTimeZone('')).toBe(false);
    expect(listTimeZones()).toContain('UTC');
    expect(listTimeZones()).toContain('America/New_York');
  });

  it('ends a window over midnight at the next local end time', () => {
    // 23:15 in New York (EST, UTC-5) on 14 January: quiet until 07:00 on the 15th.
    expect(findQuietHoursEnd(NIGHT, new Date('2026-01-15T04:15:30Z'))?.toISOString()).toBe(
      '2026-01-15T12:00:00.000Z',
    );
    // 03:00 the same night: the same end.
    expect(findQuietHoursEnd(NIGHT, new Date('2026-01-15T08:00:00Z'))?.toISOString()).toBe(
      '2026-01-15T12:00:00.000Z',
    );
  });

  it('is outside the window from its end until its start', () => {
    expect(findQuietHoursEnd(NIGHT, new Date('2026-01-15T12:00:00Z'))).toBeNull(); // 07:00
    expect(findQuietHoursEnd(NIGHT, new Date('2026-01-15T17:00:00Z'))).toBeNull(); // 12:00
    expect(findQuietHoursEnd(NIGHT, new Date('2026-01-16T02:59:00Z'))).toBeNull(); // 21:59
  });

  it('handles a daytime window and an empty one', () => {
    const day = { start: '09:00', end: '17:30', timeZone: 'Europe/Paris' };
    expect(findQuietHoursEnd(day, new Date('2026-07-01T10:00:00Z'))?.toISOString()).toBe(
      '2026-07-01T15:30:00.000Z',
    );
    expect(findQuietHoursEnd(day, new Date('2026-07-01T16:00:00Z'))).toBeNull();
    expect(
      findQuietHoursEnd({ ...day, end: '09:00' }, new Date('2026-07-01T10:00:00Z')),
    ).toBeNull();
  });

  it('follows the clock across a daylight-saving change inside the window', () => {
    // Night of 7 to 8 March 2026: New York springs forward at 02:00, so 07:00 is EDT (UTC-4).
    expect(findQuietHoursEnd(NIGHT, new Date('2026-03-08T04:00:00Z'))?.toISOString()).toBe(
      '2026-03-08T11:00:00.000Z',
    );
    // Night of 31 October to 1 November 2026: back to EST, 07:00 is UTC-5.
    expect(findQuietHoursEnd(NIGHT, new Date('2026-11-01T03:00:00Z'))?.toISOString()).toBe(
      '2026-11-01T12:00:00.000Z',
    );
  });
});
