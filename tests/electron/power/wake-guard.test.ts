import { describe, expect, it } from 'vitest';
import {
  WAKE_GRACE_MS,
  WAKE_NETWORK_MAX_WAIT_MS,
  WAKE_NETWORK_POLL_MS,
  WAKE_PROBE_TIMEOUT_MS,
  createWakeGuard,
} from '#electron/power/wake-guard.ts';
import { createFakeTimers } from '../fakes.ts';

type Probe = 'answers' | 'fails' | 'hangs';

/** Lets the guard's probe promises settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function setUp(options: { isOnline: boolean; probe?: Probe; isUserPaused?: boolean }) {
  const timers = createFakeTimers();
  const calls: string[] = [];
  const state = { isOnline: options.isOnline, probe: options.probe ?? 'answers', now: 0 };
  let probes = 0;
  const guard = createWakeGuard({
    isOnline: () => state.isOnline,
    probe: (signal) => {
      probes += 1;
      if (state.probe === 'answers') return Promise.resolve('HTTP 200');
      if (state.probe === 'fails')
        return Promise.reject(new Error('net::ERR_INTERNET_DISCONNECTED'));
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('The probe was aborted'))),
      );
    },
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
  return { guard, timers, calls, state, countProbes: () => probes };
}

describe('sleep and wake', () => {
  it('pauses on sleep and checks as soon as a real request is answered on wake', async () => {
    const { guard, calls, countProbes } = setUp({ isOnline: true });
    guard.onSuspend();
    guard.onResume();
    await settle();
    expect(calls).toEqual(['pause', 'waiting', 'done waiting', 'resume']);
    expect(countProbes()).toBe(1);
    expect(guard.isWaitingForNetwork()).toBe(false);
  });

  it('does not trust net.isOnline(): with no route it waits and tries again until answered', async () => {
    const { guard, timers, calls, state, countProbes } = setUp({ isOnline: true, probe: 'fails' });
    guard.onSuspend();
    guard.onResume();
    await settle();
    expect(calls).toEqual(['pause', 'waiting']);
    // The network answers only after 10 s: five failed tries, none of them a check.
    for (let elapsed = 0; elapsed < 10_000; elapsed += WAKE_NETWORK_POLL_MS) {
      state.now += WAKE_NETWORK_POLL_MS;
      timers.runAll();
      await settle();
    }
    expect(calls).toEqual(['pause', 'waiting']);
    state.probe = 'answers';
    state.now += WAKE_NETWORK_POLL_MS;
    timers.runAll();
    await settle();
    expect(calls).toEqual(['pause', 'waiting', 'done waiting', 'resume']);
    expect(countProbes()).toBeGreaterThanOrEqual(6);
    expect(timers.pendingCount()).toBe(0);
  });

  it('takes net.isOnline() === false at its word and sends no probe then', async () => {
    const { guard, timers, calls, state, countProbes } = setUp({ isOnline: false });
    guard.onResume();
    await settle();
    timers.runAll();
    await settle();
    expect(countProbes()).toBe(0);
    expect(calls).toEqual(['waiting']);
    state.isOnline = true;
    timers.runAll();
    await settle();
    expect(calls).toEqual(['waiting', 'done waiting', 'resume']);
  });

  it('counts a probe that hangs as no network once it times out', async () => {
    const { guard, timers, calls, state } = setUp({ isOnline: true, probe: 'hangs' });
    guard.onResume();
    await settle();
    expect(timers.pendingCount()).toBe(1);
    state.now += WAKE_PROBE_TIMEOUT_MS;
    timers.runAll();
    await settle();
    expect(calls).toEqual(['waiting']);
    // The next try is planned, not a check.
    expect(timers.pendingCount()).toBe(1);
  });

  it('checks anyway after the longest wait, so a Mac that stays offline says why', async () => {
    const { guard, timers, calls, state } = setUp({ isOnline: true, probe: 'fails' });
    guard.onResume();
    await settle();
    state.now = WAKE_NETWORK_MAX_WAIT_MS;
    timers.runAll();
    await settle();
    expect(calls).toEqual(['waiting', 'done waiting', 'resume']);
  });

  it('holds a grace of two minutes after wake for requests that find no network', () => {
    const { guard, state } = setUp({ isOnline: true });
    expect(guard.isWithinWakeGrace()).toBe(false);
    guard.onResume();
    state.now = WAKE_GRACE_MS - 1;
    expect(guard.isWithinWakeGrace()).toBe(true);
    state.now = WAKE_GRACE_MS;
    expect(guard.isWithinWakeGrace()).toBe(false);
    guard.onResume();
    guard.onSuspend();
    expect(guard.isWithinWakeGrace()).toBe(false);
  });

  it("never lifts the user's own pause, and a new sleep cancels the wait", async () => {
    const paused = setUp({ isOnline: true, isUserPaused: true });
    paused.guard.onResume();
    await settle();
    expect(paused.calls).toEqual([]);
    const { guard, timers, calls } = setUp({ isOnline: true, probe: 'fails' });
    guard.onResume();
    await settle();
    guard.onSuspend();
    timers.runAll();
    await settle();
    expect(timers.pendingCount()).toBe(0);
    expect(calls).toEqual(['waiting', 'done waiting', 'pause']);
  });

  it('ignores a probe answered after the Mac went back to sleep', async () => {
    const { guard, calls } = setUp({ isOnline: true });
    guard.onResume();
    guard.onSuspend();
    await settle();
    expect(calls).toEqual(['waiting', 'done waiting', 'pause']);
  });
});
