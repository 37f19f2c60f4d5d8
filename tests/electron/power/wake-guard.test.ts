import { describe, expect, it } from 'vitest';
import { WAKE_NETWORK_MAX_WAIT_MS, createWakeGuard } from '#electron/power/wake-guard.ts';
import { createFakeTimers } from '../fakes.ts';

function setUp(options: { isOnline: boolean; isUserPaused?: boolean }) {
  const timers = createFakeTimers();
  const calls: string[] = [];
  const state = { isOnline: options.isOnline, now: 0 };
  const guard = createWakeGuard({
    isOnline: () => state.isOnline,
    resume: () => {
      calls.push('resume');
      return Promise.resolve();
    },
    pause: () => calls.push('pause'),
    isUserPaused: () => options.isUserPaused === true,
    setTimer: timers.setTimer,
    now: () => state.now,
    log: () => undefined,
    onWaitingChange: (isWaiting) => calls.push(isWaiting ? 'waiting' : 'done waiting'),
  });
  return { guard, timers, calls, state };
}

describe('sleep and wake', () => {
  it('pauses on sleep and checks at once on wake when the network is up', () => {
    const { guard, calls } = setUp({ isOnline: true });
    guard.onSuspend();
    guard.onResume();
    expect(calls).toEqual(['pause', 'resume']);
    expect(guard.isWaitingForNetwork()).toBe(false);
  });

  it('waits for the network after wake instead of checking (and failing) at once', () => {
    const { guard, timers, calls, state } = setUp({ isOnline: false });
    guard.onSuspend();
    guard.onResume();
    expect(guard.isWaitingForNetwork()).toBe(true);
    timers.runAll();
    timers.runAll();
    expect(calls).toEqual(['pause', 'waiting']);
    state.isOnline = true;
    timers.runAll();
    expect(calls).toEqual(['pause', 'waiting', 'done waiting', 'resume']);
    expect(timers.pendingCount()).toBe(0);
  });

  it('checks anyway after the longest wait, so a Mac that stays offline says why', () => {
    const { guard, timers, calls, state } = setUp({ isOnline: false });
    guard.onResume();
    state.now = WAKE_NETWORK_MAX_WAIT_MS;
    timers.runAll();
    expect(calls).toEqual(['waiting', 'done waiting', 'resume']);
  });

  it("never lifts the user's own pause, and a new sleep cancels the wait", () => {
    const paused = setUp({ isOnline: true, isUserPaused: true });
    paused.guard.onResume();
    expect(paused.calls).toEqual([]);
    const { guard, timers, calls } = setUp({ isOnline: false });
    guard.onResume();
    guard.onSuspend();
    expect(timers.pendingCount()).toBe(0);
    expect(calls).toEqual(['waiting', 'done waiting', 'pause']);
  });
});
