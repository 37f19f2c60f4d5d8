import type { DesktopWatchStatus } from '#shared/desktop/local-search.ts';

// App Nap: macOS slows the timers of an app with no visible window, which is how this app
// spends most of its life, so a check due at 10:05 could run minutes late. A
// 'prevent-app-suspension' power save blocker keeps the timers on time; holding it always would
// cost battery, so it is held only from shortly before a check is due until that check ends.

/** How long before a due check the blocker starts (App Nap may delay this timer a little too). */
export const APP_NAP_LEAD_MS = 60_000;

/** The slice of Electron's powerSaveBlocker used. */
export type PowerSaveBlockerLike = {
  start: (type: 'prevent-app-suspension') => number;
  stop: (id: number) => unknown;
};

/** Holds off App Nap around due checks. */
export type AppNapGuard = {
  /** Call with every watch status change. */
  update: (status: DesktopWatchStatus) => void;
  isHolding: () => boolean;
  stop: () => void;
};

/** Creates the guard. */
export function createAppNapGuard(deps: {
  powerSaveBlocker: PowerSaveBlockerLike;
  setTimer: (fn: () => void, ms: number) => () => void;
  now: () => number;
}): AppNapGuard {
  let blockerId: number | null = null;
  let cancelTimer: (() => void) | null = null;
  let plannedFor: number | null = null;

  const hold = () => {
    blockerId ??= deps.powerSaveBlocker.start('prevent-app-suspension');
  };
  const release = () => {
    if (blockerId === null) return;
    deps.powerSaveBlocker.stop(blockerId);
    blockerId = null;
  };
  const cancel = () => {
    cancelTimer?.();
    cancelTimer = null;
    plannedFor = null;
  };

  return {
    update: (status) => {
      if (status.state === 'checking') {
        cancel();
        hold();
        return;
      }
      const dueAt = status.next_check_at === null ? null : Date.parse(status.next_check_at);
      if (status.state === 'paused' || dueAt === null || Number.isNaN(dueAt)) {
        cancel();
        release();
        return;
      }
      const wait = dueAt - APP_NAP_LEAD_MS - deps.now();
      if (wait <= 0) {
        cancel();
        hold();
        return;
      }
      // The check ended and the next one is far off: sleep freely until shortly before it.
      release();
      if (plannedFor === dueAt) return;
      cancel();
      plannedFor = dueAt;
      cancelTimer = deps.setTimer(() => {
        cancelTimer = null;
        plannedFor = null;
        hold();
      }, wait);
    },
    isHolding: () => blockerId !== null,
    stop: () => {
      cancel();
      release();
    },
  };
}
