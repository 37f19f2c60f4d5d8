import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WINDOW_SIZE,
  MIN_WINDOW_SIZE,
  type WindowBounds,
} from '#electron/window/window-options.ts';
import {
  restoreBounds,
  SAVE_BOUNDS_DELAY_MS,
  trackWindowBounds,
} from '#electron/window/window-state.ts';
import { createFakeTimers, createFakeWindow } from '../fakes.ts';

const laptop = { workArea: { x: 0, y: 25, width: 1440, height: 875 } };
const externalRight = { workArea: { x: 1440, y: 0, width: 2560, height: 1415 } };

describe('restoreBounds', () => {
  it('keeps saved bounds that fit a display', () => {
    const saved = { x: 100, y: 80, width: 1000, height: 700 };
    expect(restoreBounds(saved, [laptop])).toEqual(saved);
    const onExternal = { x: 2000, y: 100, width: 1200, height: 800 };
    expect(restoreBounds(onExternal, [laptop, externalRight])).toEqual(onExternal);
  });

  it('falls back to the default size for missing or malformed data', () => {
    for (const saved of [
      undefined,
      null,
      'big',
      { width: 'wide', height: 700 },
      { width: 1.5, height: 700 },
      { width: Number.NaN, height: 700 },
      { x: 1, y: 2 },
    ]) {
      expect(restoreBounds(saved, [laptop])).toEqual({ ...DEFAULT_WINDOW_SIZE });
    }
  });

  it('drops the position when its display is gone, so the system centres the window', () => {
    const onUnplugged = { x: 2000, y: 100, width: 1200, height: 800 };
    expect(restoreBounds(onUnplugged, [laptop])).toEqual({ width: 1200, height: 800 });
  });

  it('shrinks a window larger than the display and moves it fully onto it', () => {
    const restored = restoreBounds({ x: 800, y: 400, width: 3000, height: 2000 }, [laptop]);
    expect(restored).toEqual({ x: 0, y: 25, width: 1440, height: 875 });
    const hanging = restoreBounds({ x: 1000, y: 30, width: 1000, height: 700 }, [laptop]);
    expect(hanging).toEqual({ x: 440, y: 30, width: 1000, height: 700 });
  });

  it('never goes below the minimum size', () => {
    const restored = restoreBounds({ x: 10, y: 30, width: 50, height: 40 }, [laptop]);
    expect(restored).toMatchObject(MIN_WINDOW_SIZE);
  });
});

describe('trackWindowBounds', () => {
  it('saves once after resizes and moves settle', () => {
    const fake = createFakeWindow();
    const timers = createFakeTimers();
    const saved: WindowBounds[] = [];
    trackWindowBounds(fake.win, (bounds) => saved.push(bounds), timers.setTimer);
    fake.emit('resize');
    fake.emit('move');
    fake.state.bounds = { x: 30, y: 40, width: 900, height: 650 };
    fake.emit('resize');
    expect(saved).toEqual([]);
    expect(timers.pendingCount()).toBe(1);
    timers.runAll();
    expect(saved).toEqual([{ x: 30, y: 40, width: 900, height: 650 }]);
    expect(SAVE_BOUNDS_DELAY_MS).toBeGreaterThan(0);
  });

  it('saves at once on close and drops the pending save', () => {
    const fake = createFakeWindow();
    const timers = createFakeTimers();
    const saved: WindowBounds[] = [];
    trackWindowBounds(fake.win, (bounds) => saved.push(bounds), timers.setTimer);
    fake.emit('move');
    fake.emit('close');
    expect(saved).toHaveLength(1);
    expect(timers.pendingCount()).toBe(0);
  });

  it('saves nothing for a destroyed window', () => {
    const fake = createFakeWindow();
    const timers = createFakeTimers();
    const saved: WindowBounds[] = [];
    trackWindowBounds(fake.win, (bounds) => saved.push(bounds), timers.setTimer);
    fake.emit('resize');
    fake.state.isDestroyed = true;
    timers.runAll();
    expect(saved).toEqual([]);
  });
});
