import { describe, expect, it } from 'vitest';
import { formatOrdinalDay, formatSupportEndDate } from '#shared/domain/support-date.ts';

describe('support end date', () => {
  it('words an ISO date as the banner does', () => {
    expect(formatSupportEndDate('2025-09-08')).toBe('September 8th, 2025');
    expect(formatSupportEndDate('2025-09-08T00:00:00Z')).toBe('September 8th, 2025');
    expect(formatSupportEndDate('2026-01-01')).toBe('January 1st, 2026');
  });

  it('shows already-worded text unchanged', () => {
    expect(formatSupportEndDate('September 8th, 2025')).toBe('September 8th, 2025');
  });

  it('leaves impossible ISO dates unchanged', () => {
    expect(formatSupportEndDate('2025-13-08')).toBe('2025-13-08');
  });

  it('uses English ordinals including the teens', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31].map(formatOrdinalDay)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '31st',
    ]);
  });
});
