/** An account's quiet hours: wall-clock start and end ("HH:MM", 24 h) in an IANA time zone. */
export type QuietHours = {
  start: string;
  end: string;
  timeZone: string;
};

const MINUTES_PER_DAY = 24 * 60;
const CLOCK_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes after midnight of an "HH:MM" time, or undefined when it is not one. */
export function parseClockTime(value: string): number | undefined {
  const match = CLOCK_PATTERN.exec(value);
  return match === null ? undefined : Number(match[1]) * 60 + Number(match[2]);
}

/** Whether the runtime's time-zone database knows this IANA name (e.g. "Europe/Paris"). */
export function isKnownTimeZone(timeZone: string): boolean {
  if (timeZone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** How the time-zone database writes a zone's name: capitalised parts ("America/Port-au-Prince"). */
const ZONE_NAME_PATTERN = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Z0-9][A-Za-z0-9_+-]*)*$/;

/**
 * Whether `timeZone` is a zone's name as the IANA database writes it ("Europe/Paris", "UTC"),
 * for input: not an offset ("+23:59", which knows no daylight saving) nor another spelling of
 * a name ("utc", "america/new_york"). Names the database keeps as links ("Asia/Calcutta",
 * "Asia/Kolkata") are both accepted, since browsers answer either.
 */
export function isCanonicalTimeZone(timeZone: string): boolean {
  if (!ZONE_NAME_PATTERN.test(timeZone) || !isKnownTimeZone(timeZone)) return false;
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  // The runtime answers a name it keeps as given; differing only in letter case is misspelt.
  return resolved === timeZone || resolved.toLowerCase() !== timeZone.toLowerCase();
}

/** Every IANA zone the runtime knows, UTC included, for pickers. */
export function listTimeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

/** The wall-clock minutes after midnight at an instant in a zone. */
function readLocalMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const hour = Number(parts.find((part) => part.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((part) => part.type === 'minute')?.value ?? 0);
  return hour * 60 + minute;
}

/**
 * When the quiet hours holding `at` end, or null when `at` is outside them (or the window is
 * empty: start equal to end). A window whose start is after its end runs over midnight
 * ("22:00" to "07:00"). The end is the next instant the zone's clock reads the end time, so
 * a daylight-saving change overnight moves it with the clock.
 */
export function findQuietHoursEnd(hours: QuietHours, at: Date): Date | null {
  const start = parseClockTime(hours.start);
  const end = parseClockTime(hours.end);
  if (start === undefined || end === undefined || start === end) return null;
  if (!isKnownTimeZone(hours.timeZone)) return null;
  const now = readLocalMinutes(at, hours.timeZone);
  const isInside = start < end ? now >= start && now < end : now >= start || now < end;
  if (!isInside) return null;
  const minuteStart = at.getTime() - (((at.getTime() % 60_000) + 60_000) % 60_000);
  let candidate = minuteStart + ((end - now + MINUTES_PER_DAY) % MINUTES_PER_DAY) * 60_000;
  // The offset may differ at the end (a DST change overnight): correct by what the clock reads.
  let drift =
    (end - readLocalMinutes(new Date(candidate), hours.timeZone) + MINUTES_PER_DAY) %
    MINUTES_PER_DAY;
  if (drift > MINUTES_PER_DAY / 2) drift -= MINUTES_PER_DAY;
  candidate += drift * 60_000;
  return new Date(Math.max(candidate, at.getTime()));
}
