import { isKnownTimeZone } from './quiet-hours.ts';

// Alert times are written in the recipient's time zone (issue 42): the account's zone, set
// from the browser on first sign-in and changeable in My Account. Intl's time-zone data does
// the work, so daylight saving is right on both sides of a change.

/** The zone used while an account has none yet: UTC, named as such in every message. */
export const FALLBACK_TIME_ZONE = 'UTC';

function formatParts(date: Date, timeZone: string, options: Intl.DateTimeFormatOptions): string {
  const zone = isKnownTimeZone(timeZone) ? timeZone : FALLBACK_TIME_ZONE;
  // Zone abbreviations as people there write them: "EST" in the Americas (en-US), "CET" in
  // Europe (en-GB); each locale falls back to "GMT+9" where it knows no abbreviation.
  const locale = /^(America|US|Pacific\/Honolulu)/.test(zone) ? 'en-US' : 'en-GB';
  return new Intl.DateTimeFormat(locale, { timeZone: zone, ...options }).format(date);
}

/** "Sat 28 Nov, 10:42 EST": a moment as the recipient's clock shows it, with the zone named. */
export function formatAlertTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const zone = isKnownTimeZone(timeZone) ? timeZone : FALLBACK_TIME_ZONE;
  const day = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  }).format(date);
  const clock = formatParts(date, timeZone, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  });
  return `${day.replace(',', '')}, ${clock}`;
}

/** "10:42": the clock time alone, for "gone at 10:42" beside a time already zoned. */
export function formatAlertClock(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return formatParts(date, timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}
