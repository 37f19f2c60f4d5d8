import { describe, expect, it } from 'vitest';
import {
  findDefaultMaxDistanceMiles,
  formatDistance,
  fromMiles,
  getDistanceUnit,
} from '#shared/domain/alert-distance.ts';
import { formatAlertClock, formatAlertTime } from '#shared/domain/alert-time.ts';
import { classifyPickupQuote, describePickupQuote } from '#shared/domain/pickup-quote.ts';
import { parseMaxDistance } from '#shared/domain/search-settings.ts';

describe('alert wording', () => {
  it('tells Apple’s “today” from a later pickup day, quoting Apple', () => {
    expect(classifyPickupQuote('Available Today')).toBe('today');
    expect(classifyPickupQuote('Today at Apple Fifth Avenue')).toBe('today');
    expect(classifyPickupQuote('Available Wed 23 Sep')).toBe('later');
    expect(classifyPickupQuote(null)).toBe('unknown');
    expect(describePickupQuote('Available Wed 23 Sep')).toBe('Available Wed 23 Sep (not today)');
    expect(describePickupQuote('Available Today')).toBe('Available Today');
    expect(describePickupQuote(null)).toBe('Pickup time not stated');
  });

  it('defaults nearby results to 30 miles or 50 km, in the country’s unit', () => {
    expect(getDistanceUnit('US')).toBe('mi');
    expect(getDistanceUnit('GB')).toBe('mi');
    expect(getDistanceUnit('DE')).toBe('km');
    expect(findDefaultMaxDistanceMiles('US')).toBe(30);
    expect(fromMiles(findDefaultMaxDistanceMiles('CA'), 'km')).toBe(50);
    expect(formatDistance(1.2, 'mi')).toBe('1.2 mi');
    expect(formatDistance(1.2, 'km')).toBe('1.9 km');
  });

  it('reads a typed distance in the country’s unit and refuses one out of bounds in that unit', () => {
    expect(parseMaxDistance('50', 'km')).toEqual({ miles: 50 / 1.609344 });
    expect(parseMaxDistance('', 'km')).toEqual({ miles: null });
    expect(parseMaxDistance('900', 'km')).toEqual({
      error: 'Enter a distance from 0.8 to 804.7 km, or leave it empty.',
    });
    expect(parseMaxDistance('0.2')).toEqual({
      error: 'Enter a distance from 0.5 to 500 miles, or leave it empty.',
    });
  });

  it('writes times in the recipient’s zone, daylight saving included', () => {
    expect(formatAlertTime('2026-11-22T10:15:00.000Z', 'America/New_York')).toBe(
      'Sun 22 Nov, 05:15 EST',
    );
    expect(formatAlertTime('2026-07-01T10:15:00.000Z', 'America/New_York')).toBe(
      'Wed 1 Jul, 06:15 EDT',
    );
    expect(formatAlertTime('2026-11-22T10:15:00.000Z', 'Europe/Paris')).toBe(
      'Sun 22 Nov, 11:15 CET',
    );
    expect(formatAlertClock('2026-11-22T10:42:00.000Z', 'UTC')).toBe('10:42');
    expect(formatAlertClock('2026-11-22T10:42:00.000Z', 'Not/AZone')).toBe('10:42');
  });
});
