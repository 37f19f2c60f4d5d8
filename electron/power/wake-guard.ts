// Waking from sleep: macOS reports `resume` before Wi-Fi has reconnected, so a check started
// at once fails, shows "!" in the menu bar and backs the watched stores off for minutes. The
// guard keeps the watch paused until `net.isOnline()` says a link is up (asked every few
// seconds), then resumes; a user's own pause is never lifted. After the longest wait it
// resumes anyway, so a Mac that stays offline shows why instead of silently not checking.

/** How often the network is asked after wake. */
export const WAKE_NETWORK_POLL_MS = 2_000;
/** Longest wait for the network before checking regardless. */
export const WAKE_NETWORK_MAX_WAIT_MS = 120_000;

/** What the guard drives. */
export type WakeGuardDeps = {
  isOnline: () => boolean;
  /** Resumes the watch loop (which checks at once). */
  resume: () => Promise<unknown>;
  pause: () => void;
  /** True while the user paused checks (sleep and wake leave that alone). */
  isUserPaused: () => boolean;
  setTimer: (fn: () => void, ms: number) => () => void;
  now: () => number;
  log: (message: string, error?: unknown) => void;
  /** The guard started or stopped waiting for the network. */
  onWaitingChange?: (isWaiting: boolean) => void;
};

/** Sleep and wake handling for the watch loop. */
export type WakeGuard = {
  onSuspend: () => void;
  onResume: () => void;
  /** True between a wake and the network coming back. */
  isWaitingForNetwork: () => boolean;
  stop: () => void;
};

/** Creates the guard; wire onSuspend/onResume to powerMonitor's suspend and resume. */
export function createWakeGuard(deps: WakeGuardDeps): WakeGuard {
  let cancelPoll: (() => void) | null = null;
  let isWaiting = false;

  const setWaiting = (waiting: boolean) => {
    if (isWaiting === waiting) return;
    isWaiting = waiting;
    deps.onWaitingChange?.(waiting);
  };
  const stopPolling = () => {
    cancelPoll?.();
    cancelPoll = null;
  };
  const resumeNow = () => {
    stopPolling();
    setWaiting(false);
    if (deps.isUserPaused()) return;
    deps.resume().catch((error: unknown) => deps.log('Check failed', error));
  };

  return {
    onSuspend: () => {
      stopPolling();
      setWaiting(false);
      deps.pause();
    },
    onResume: () => {
      stopPolling();
      if (deps.isUserPaused()) return;
      if (deps.isOnline()) {
        resumeNow();
        return;
      }
      setWaiting(true);
      const startedAt = deps.now();
      const poll = () => {
        if (deps.isOnline() || deps.now() - startedAt >= WAKE_NETWORK_MAX_WAIT_MS) {
          resumeNow();
          return;
        }
        cancelPoll = deps.setTimer(poll, WAKE_NETWORK_POLL_MS);
      };
      cancelPoll = deps.setTimer(poll, WAKE_NETWORK_POLL_MS);
    },
    isWaitingForNetwork: () => isWaiting,
    stop: () => {
      stopPolling();
      setWaiting(false);
    },
  };
}
