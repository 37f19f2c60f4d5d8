import type { DesktopWatchStatus } from '#shared/desktop/local-search.ts';

// Electron's 'prevent-app-suspension' blocker is, on macOS, an IOKit "no idle sleep" power
// assertion (Electron: "keeps system active but allows screen to be turned off"), not merely
// an App Nap opt-out. Held from a minute before each due check, as this app once did, it kept
// a Mac on a 1-minute interval from ever sleeping when idle. So it is held only while a check
// runs: a check takes seconds, and idle sleep in the middle of one would fail its requests and
// back the stores off. Between checks the app may nap: macOS then runs its timers late by
// seconds to about a minute, which a watch every 1 to 60 minutes tolerates (the next check is
// planned from the last one, so a late one does not drift the schedule).

/** The slice of Electron's powerSaveBlocker used. */
export type PowerSaveBlockerLike = {
  start: (type: 'prevent-app-suspension') => number;
  stop: (id: number) => unknown;
};

/** Keeps the Mac awake for the length of a check, and only then. */
export type AppNapGuard = {
  /** Call with every watch status change. */
  update: (status: DesktopWatchStatus) => void;
  isHolding: () => boolean;
  stop: () => void;
};

/** Creates the guard. */
export function createAppNapGuard(deps: { powerSaveBlocker: PowerSaveBlockerLike }): AppNapGuard {
  let blockerId: number | null = null;
  const release = () => {
    if (blockerId === null) return;
    deps.powerSaveBlocker.stop(blockerId);
    blockerId = null;
  };
  return {
    update: (status) => {
      if (status.state === 'checking')
        blockerId ??= deps.powerSaveBlocker.start('prevent-app-suspension');
      else release();
    },
    isHolding: () => blockerId !== null,
    stop: release,
  };
}
