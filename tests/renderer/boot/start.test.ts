// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

// start.ts runs the app as soon as it is imported; mock that away to test its scheduling alone.
vi.mock('#renderer/main.tsx', () => ({}));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Imports start.ts afresh and answers its scheduler. */
async function loadScheduler() {
  vi.resetModules();
  const { runAfterFirstPaint } = await import('#renderer/boot/start.ts');
  return runAfterFirstPaint;
}

describe('the entry script', () => {
  it('starts the app only after an animation frame and the task after it (the first paint)', async () => {
    const runAfterFirstPaint = await loadScheduler();
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) =>
      frames.push(callback),
    );
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible');
    const start = vi.fn();
    runAfterFirstPaint(start);
    await vi.advanceTimersByTimeAsync(100);
    expect(start).not.toHaveBeenCalled();
    frames.forEach((frame) => frame(0));
    expect(start).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(0);
    expect(start).toHaveBeenCalledOnce();
  });

  it('starts at once in a hidden tab, which paints no frames', async () => {
    const runAfterFirstPaint = await loadScheduler();
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const start = vi.fn();
    runAfterFirstPaint(start);
    expect(start).toHaveBeenCalledOnce();
  });

  it('starts once when the tab is hidden before its first frame', async () => {
    const runAfterFirstPaint = await loadScheduler();
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) =>
      frames.push(callback),
    );
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible');
    const start = vi.fn();
    runAfterFirstPaint(start);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(start).toHaveBeenCalledOnce();
    frames.forEach((frame) => frame(0));
    await vi.advanceTimersByTimeAsync(0);
    expect(start).toHaveBeenCalledOnce();
  });

  it("evaluates React's renderer first and the app in a later task", async () => {
    vi.resetModules();
    const { loadAppInSteps } = await import('#renderer/boot/start.ts');
    vi.useFakeTimers();
    const order: string[] = [];
    const loading = loadAppInSteps(
      async () => {
        order.push('renderer');
      },
      async () => {
        order.push('app');
      },
    );
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual(['renderer']);
    await vi.advanceTimersByTimeAsync(0);
    await loading;
    expect(order).toEqual(['renderer', 'app']);
  });

  it('does not load the app when the renderer fails to load', async () => {
    vi.resetModules();
    const { loadAppInSteps } = await import('#renderer/boot/start.ts');
    const loadApp = vi.fn(async () => undefined);
    await expect(
      loadAppInSteps(() => Promise.reject(new Error('offline')), loadApp),
    ).rejects.toThrow('offline');
    expect(loadApp).not.toHaveBeenCalled();
  });
});
