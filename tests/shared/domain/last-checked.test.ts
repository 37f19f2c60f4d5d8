import { describe, expect, it } from 'vitest';
import { formatLastChecked } from '#shared/domain/last-checked.ts';

const now = new Date('2024-09-20T12:00:00Z');

/** An ISO time this many minutes before now. */
function minutesAgo(minutes: number): string {
  return new Date(now.getTime() - minutes * 60_000).toISOString();
}

describe('formatLastChecked', () => {
  it('is absent when never checked or unreadable', () => {
    expect(formatLastChecked(null, now)).toBeNull();
    expect(formatLastChecked('yesterday', now)).toBeNull();
  });

  it('counts minutes with plurals', () => {
    expect(formatLastChecked(minutesAgo(0.5), now)).toBe('Last checked less than a minute ago');
    expect(formatLastChecked(minutesAgo(1), now)).toBe('Last checked 1 minute ago');
    expect(formatLastChecked(minutesAgo(5), now)).toBe('Last checked 5 minutes ago');
    expect(formatLastChecked(minutesAgo(59.9), now)).toBe('Last checked 59 minutes ago');
  });

  it('switches to hours and days', () => {
    expect(formatLastChecked(minutesAgo(60), now)).toBe('Last checked 1 hour ago');
    expect(formatLastChecked(minutesAgo(150), now)).toBe('Last checked 2 hours ago');
    expect(formatLastChecked(minutesAgo(60 * 24), now)).toBe('Last checked 1 day ago');
    expect(formatLastChecked(minutesAgo(60 * 24 * 3), now)).toBe('Last checked 3 days ago');
  });

  it('reads a time slightly in the future (clock skew) as just now', () => {
    expect(formatLastChecked(minutesAgo(-2), now)).toBe('Last checked less than a minute ago');
  });
});
