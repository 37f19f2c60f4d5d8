// Wording of the status page's figures: ages in minutes, hours and days, and dates as the
// visitor's browser writes them.

/** "less than a minute", "3 minutes", "2 hours", "4 days": how long ago `at` was. */
export function formatAge(at: string, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - Date.parse(at)) / 60_000));
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  const days = Math.floor(hours / 24);
  return `${days} days`;
}

/** "3 minutes ago", or "never" for a missing time. */
export function formatAgo(at: string | null, now: Date): string {
  return at === null || Number.isNaN(Date.parse(at)) ? 'never' : `${formatAge(at, now)} ago`;
}

/** A date and time in the visitor's own locale and zone. */
export function formatWhen(at: string): string {
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Minutes between `at` and now, never below zero; null for a missing time. */
export function minutesSince(at: string | null, now: Date): number | null {
  if (at === null) return null;
  const time = Date.parse(at);
  return Number.isNaN(time) ? null : Math.max(0, (now.getTime() - time) / 60_000);
}

/** "1 store", "3 stores". */
export function countStores(count: number): string {
  return `${count} ${count === 1 ? 'store' : 'stores'}`;
}
