import { describe, expect, it } from 'vitest';
import type { DesktopWatchStatus } from '#shared/desktop/local-search.ts';
import { createAppNapGuard } from '#electron/power/app-nap-guard.ts';

const NOW = Date.parse('2026-11-25T10:00:00.000Z');
const status = (patch: Partial<DesktopWatchStatus>): DesktopWatchStatus => ({
  state: 'idle',
  last_check_at: null,
  next_check_at: new Date(NOW + 60_000).toISOString(),
  is_failing: false,
  failing_since: null,
  failure_message: null,
  cool_down_until: null,
  search_count: 1,
  ...patch,
});

function setUp() {
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
  });
  return { guard, blockers };
}

describe('keeping the Mac awake for checks', () => {
  it('holds the blocker for the length of a check and lets go when it ends', () => {
    const { guard, blockers } = setUp();
    guard.update(status({ state: 'checking' }));
    guard.update(status({ state: 'checking' }));
    expect(blockers).toEqual(['start prevent-app-suspension']);
    guard.update(status({}));
    expect(blockers).toEqual(['start prevent-app-suspension', 'stop 1']);
    expect(guard.isHolding()).toBe(false);
  });

  it('never holds it between checks, even with a 1-minute interval and a check a moment away', () => {
    const { guard, blockers } = setUp();
    guard.update(status({ next_check_at: new Date(NOW + 1_000).toISOString() }));
    guard.update(status({ next_check_at: new Date(NOW - 1_000).toISOString() }));
    expect(blockers).toEqual([]);
    expect(guard.isHolding()).toBe(false);
  });

  it('lets go when paused or stopped in the middle of a check', () => {
    const { guard, blockers } = setUp();
    guard.update(status({ state: 'checking' }));
    guard.update(status({ state: 'paused', next_check_at: null }));
    guard.update(status({ state: 'checking' }));
    guard.stop();
    expect(blockers).toEqual([
      'start prevent-app-suspension',
      'stop 1',
      'start prevent-app-suspension',
      'stop 2',
    ]);
  });
});
