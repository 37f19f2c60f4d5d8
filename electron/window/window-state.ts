import type { BrowserWindow, Rectangle } from 'electron';
import { z } from 'zod';
import { DEFAULT_WINDOW_SIZE, MIN_WINDOW_SIZE, type WindowBounds } from './window-options.ts';

// The window reopens where the user left it. Saved bounds are untrusted (an old version, a
// hand-edited file, a display that has since been unplugged), so they are checked and moved
// onto a display that exists before the window is created.

/** Saved bounds as stored: whole pixels, a size within reason, position optional. */
export const savedWindowBoundsSchema = z.object({
  x: z.number().int().min(-100_000).max(100_000).optional(),
  y: z.number().int().min(-100_000).max(100_000).optional(),
  width: z.number().int().min(1).max(100_000),
  height: z.number().int().min(1).max(100_000),
});

/** Resizes and moves are saved once they settle, not on every pixel. */
export const SAVE_BOUNDS_DELAY_MS = 500;

/** How much of the title bar must be on a display for the saved position to be kept. */
const MIN_VISIBLE_PIXELS = 100;

/** Starts a timer; answers a function that cancels it. */
export type SetTimer = (callback: () => void, ms: number) => () => void;

/**
 * Bounds to open the window with: the saved ones, clamped to fit the display they are on;
 * the saved size without a position (the system centres it) when that display is gone; the
 * default size when nothing usable was saved.
 */
export function restoreBounds(saved: unknown, displays: { workArea: Rectangle }[]): WindowBounds {
  const parsed = savedWindowBoundsSchema.safeParse(saved);
  const primary = displays[0]?.workArea;
  if (!parsed.success) return fitSize(DEFAULT_WINDOW_SIZE, primary);
  const bounds = parsed.data;
  const { x, y } = bounds;
  const display =
    x === undefined || y === undefined
      ? undefined
      : displays.find(({ workArea }) => isTitleBarVisible({ ...bounds, x, y }, workArea));
  if (display === undefined || x === undefined || y === undefined) return fitSize(bounds, primary);
  const size = fitSize(bounds, display.workArea);
  const area = display.workArea;
  return {
    x: clamp(x, area.x, area.x + area.width - size.width),
    y: clamp(y, area.y, area.y + area.height - size.height),
    ...size,
  };
}

/** What trackWindowBounds needs of the window. */
export type TrackedWindow = Pick<BrowserWindow, 'on' | 'getNormalBounds' | 'isDestroyed'>;

/**
 * Saves the window's normal (not maximised, not full-screen) bounds after it is resized or
 * moved, and at once when it closes. Answers a function that stops pending saves.
 */
export function trackWindowBounds(
  win: TrackedWindow,
  save: (bounds: WindowBounds) => void,
  setTimer: SetTimer,
): () => void {
  let cancelPending: (() => void) | null = null;
  const saveNow = () => {
    cancelPending?.();
    cancelPending = null;
    if (win.isDestroyed()) return;
    const { x, y, width, height } = win.getNormalBounds();
    save({ x, y, width, height });
  };
  const saveLater = () => {
    cancelPending?.();
    cancelPending = setTimer(saveNow, SAVE_BOUNDS_DELAY_MS);
  };
  win.on('resize', saveLater);
  win.on('move', saveLater);
  win.on('close', saveNow);
  return () => {
    cancelPending?.();
    cancelPending = null;
  };
}

/** The size within the minimum and the display's work area (when one is known). */
function fitSize(
  size: { width: number; height: number },
  area: Rectangle | undefined,
): { width: number; height: number } {
  const maxWidth = Math.max(MIN_WINDOW_SIZE.width, area?.width ?? Number.POSITIVE_INFINITY);
  const maxHeight = Math.max(MIN_WINDOW_SIZE.height, area?.height ?? Number.POSITIVE_INFINITY);
  return {
    width: clamp(size.width, MIN_WINDOW_SIZE.width, maxWidth),
    height: clamp(size.height, MIN_WINDOW_SIZE.height, maxHeight),
  };
}

/** True when the top strip of the window (where it is dragged from) lies on the area. */
function isTitleBarVisible(bounds: Rectangle, area: Rectangle): boolean {
  const overlapX =
    Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
  const isTopInside = bounds.y >= area.y - 10 && bounds.y < area.y + area.height - 20;
  return overlapX >= MIN_VISIBLE_PIXELS && isTopInside;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}
