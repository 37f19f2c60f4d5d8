const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** English ordinal of a day of month: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st... */
export function formatOrdinalDay(day: number): string {
  const lastTwo = day % 100;
  if (lastTwo >= 11 && lastTwo <= 13) {
    return `${day}th`;
  }
  const suffix = { 1: 'st', 2: 'nd', 3: 'rd' }[day % 10] ?? 'th';
  return `${day}${suffix}`;
}

/**
 * The end-of-support date as the banner shows it ("September 8th, 2025"). The install sends
 * either an ISO date (2025-09-08) or text already worded for people, which is shown as is.
 */
export function formatSupportEndDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value.trim());
  if (match === null) {
    return value;
  }
  const month = MONTHS[Number(match[2]) - 1];
  const day = Number(match[3]);
  if (month === undefined || day < 1 || day > 31) {
    return value;
  }
  return `${month} ${formatOrdinalDay(day)}, ${match[1]}`;
}
