import { describe, expect, it } from 'vitest';
import type { DesktopWatchStatus } from '#shared/desktop/local-search.ts';
import { APP_NAP_LEAD_MS, createAppNapGuard } from '#electron/power/app-nap-guard.ts';
import { createFakeTimers } from '../fakes.ts';

const NOW = Date.parse('2026-11-25T10:00:00.000Z');
const status = (patch: Partial<DesktopWatchStatus>): DesktopWatchStatus => ({
  state: 'idle',
  last_check_at: null,
  next_check_at: new Date(NOW + 5 * 60_000).toISOString(),
  is_failing: false,
  failing_since: null,
  failure_message: null,
  cool_down_until: null,
  search_count: 1,
  ...patch,
});

function setUp() {
  const timers = createFakeTimers();
  const blockers: string[] = [];
  let nextId = 1;
  const guard = createAppNapGuard({
    powerSaveBlocker: {
      start: (type) => {
        blockers.push(`start ${type}`);
        return nextId++;
      },
      stop: (id) => blockers.push(`stop ${id}`),
    },
    setTimer: timers.setTimer,
    now: () => NOW,
  });
  return { guard, timers, blockers };
}

describe('App Nap', () => {
  it('holds App Nap off only from shortly before a due check until it ends', () => {
    const { guard, timers, blockers } = setUp();
    guard.update(status({}));
    expect(guard.isHolding()).toBe(false);
    expect(timers.pendingCount()).toBe(1);
    timers.runAll();
    expect(blockers).toEqual(['start prevent-app-suspension']);
    guard.update(status({ state: 'checking' }));
    expect(blockers).toHaveLength(1);
    guard.update(status({ next_check_at: new Date(NOW + 10 * 60_000).toISOString() }));
    expect(blockers).toEqual(['start prevent-app-suspension', 'stop 1']);
    expect(guard.isHolding()).toBe(false);
  });

  it('holds at once when a check is due within the lead time', () => {
    const { guard, blockers } = setUp();
    guard.update(status({ next_check_at: new Date(NOW + APP_NAP_LEAD_MS / 2).toISOString() }));
    expect(blockers).toEqual(['start prevent-app-suspension']);
  });

  it('lets the Mac nap while paused or with nothing to check', () => {
    const { guard, timers, blockers } = setUp();
    guard.update(status({ state: 'checking' }));
    guard.update(status({ state: 'paused', next_check_at: null }));
    expect(blockers).toEqual(['start prevent-app-suspension', 'stop 1']);
    guard.update(status({ next_check_at: null, search_count: 0 }));
    expect(timers.pendingCount()).toBe(0);
    expect(guard.isHolding()).toBe(false);
  });
});
