/**
 * "Last checked N minutes ago" for a search's inventory; null when never checked or the
 * timestamp is unreadable. Clock skew (a time slightly ahead) reads as just now.
 */
export function formatLastChecked(lastCheckedAt: string | null, now: Date): string | null {
  if (lastCheckedAt === null) {
    return null;
  }
  const checkedAt = Date.parse(lastCheckedAt);
  if (Number.isNaN(checkedAt)) {
    return null;
  }
  const minutes = Math.max(0, Math.floor((now.getTime() - checkedAt) / 60_000));
  if (minutes < 1) {
    return 'Last checked less than a minute ago';
  }
  if (minutes < 60) {
    return `Last checked ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} ago`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 24) {
    return `Last checked ${hours} ${hours === 1 ? 'hour' : 'hours'} ago`;
  }
  const days = Math.floor(hours / 24);
  return `Last checked ${days} ${days === 1 ? 'day' : 'days'} ago`;
}
