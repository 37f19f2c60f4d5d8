import { describe, expect, it } from 'vitest';
import type { DesktopWatchStatus } from '#shared/desktop/local-search.ts';
import { clampCheckIntervalMinutes } from '#shared/desktop/local-search.ts';
import { describeWatchStatus } from '#shared/desktop/status-text.ts';

const now = new Date('2026-11-23T10:00:00.000Z');
const base: DesktopWatchStatus = {
  state: 'idle',
  last_check_at: '2026-11-23T09:58:00.000Z',
  next_check_at: '2026-11-23T10:03:00.000Z',
  is_failing: false,
  failing_since: null,
  failure_message: null,
  cool_down_until: null,
  search_count: 1,
};

describe('the watch status in words', () => {
  it('says when the last check was and when the next one is', () => {
    expect(describeWatchStatus(base, now)).toEqual({
      lastCheck: 'Last checked 2 minutes ago',
      nextCheck: 'Next check in 3 minutes',
      failure: null,
      notificationProblem: null,
    });
  });

  it('says how to fix notifications macOS refuses, and that a wake waits for the network', () => {
    const refused = { ...base, notification_problem: 'Notifications are not allowed' };
    expect(describeWatchStatus(refused, now).notificationProblem).toBe(
      "Notifications can't be shown (Notifications are not allowed). Allow them in System Settings > Notifications > Shelfwatch.",
    );
    const waking = { ...base, state: 'paused' as const, is_waiting_for_network: true };
    expect(describeWatchStatus(waking, now).nextCheck).toBe('Waiting for the network...');
  });

  it('says paused, checking and never checked', () => {
    expect(describeWatchStatus({ ...base, state: 'paused' }, now).nextCheck).toBe(
      'Checks are paused',
    );
    expect(describeWatchStatus({ ...base, state: 'checking' }, now).nextCheck).toBe(
      'Checking now...',
    );
    expect(describeWatchStatus({ ...base, last_check_at: null }, now).lastCheck).toBe(
      'Not checked yet',
    );
  });

  it('names the failure while checks fail', () => {
    const failing = { ...base, is_failing: true, failure_message: 'Apple is refusing requests' };
    expect(describeWatchStatus(failing, now).failure).toBe(
      'Checks are failing: Apple is refusing requests',
    );
  });

  it('clamps the check interval to whole minutes from 1 to 60', () => {
    expect(clampCheckIntervalMinutes(0)).toBe(1);
    expect(clampCheckIntervalMinutes(0.2)).toBe(1);
    expect(clampCheckIntervalMinutes(7.4)).toBe(7);
    expect(clampCheckIntervalMinutes(600)).toBe(60);
    expect(clampCheckIntervalMinutes(Number.NaN)).toBe(5);
  });
});
