import { describe, expect, it } from 'vitest';
import {
  RECHECK_MIN_GAP_MS,
  RECHECK_WATCH_DURATION_MS,
  RECHECK_WATCH_INTERVAL_MS,
  createNotificationRecheck,
} from '#electron/notifications/notification-recheck.ts';
import { createFakeTimers } from '../fakes.ts';

function setUp() {
  const timers = createFakeTimers();
  const state = { hasProblem: true, now: 0, tests: 0 };
  const recheck = createNotificationRecheck({
    hasProblem: () => state.hasProblem,
    showTest: () => {
      state.tests += 1;
    },
    setTimer: timers.setTimer,
    now: () => state.now,
  });
  return { recheck, timers, state };
}

describe('clearing the notification warning once the user allowed them', () => {
  it('tests again when the user comes back, not more often than the gap allows', () => {
    const { recheck, state } = setUp();
    recheck.recheck();
    recheck.recheck();
    expect(state.tests).toBe(1);
    state.now += RECHECK_MIN_GAP_MS;
    recheck.recheck();
    expect(state.tests).toBe(2);
  });

  it('sends no test while notifications work', () => {
    const { recheck, state, timers } = setUp();
    state.hasProblem = false;
    recheck.recheck();
    recheck.watchForFix();
    timers.runAll();
    expect(state.tests).toBe(0);
  });

  it('after Notification Settings was opened, tests every little while until fixed or given up', () => {
    const { recheck, state, timers } = setUp();
    recheck.watchForFix();
    state.now += RECHECK_WATCH_INTERVAL_MS;
    timers.runAll();
    state.now += RECHECK_WATCH_INTERVAL_MS;
    timers.runAll();
    expect(state.tests).toBe(2);
    state.hasProblem = false;
    timers.runAll();
    expect(timers.pendingCount()).toBe(0);
    const late = setUp();
    late.recheck.watchForFix();
    late.state.now += RECHECK_WATCH_DURATION_MS;
    late.timers.runAll();
    expect(late.state.tests).toBe(0);
    expect(late.timers.pendingCount()).toBe(0);
  });
});
