// Waking from sleep: macOS reports `resume` before Wi-Fi has reconnected, and Electron says
// `net.isOnline()` is only conclusive when false (a link can be up with no route, no DNS, or a
// captive portal). A check started on its word fails, shows "!" in the menu bar and backs the
// watched stores off for minutes. So after wake the guard keeps the watch paused until a real
// answer comes back: a cheap request (the probe, through net.fetch) retried every few seconds;
// `isOnline() === false` only skips a probe that could not succeed. After the longest wait it
// resumes anyway, so a Mac that stays offline shows why instead of silently not checking. A
// user's own pause is never lifted. For two minutes after wake a request that finds no network
// is retried rather than failed (wake-grace-fetch.ts): the probe can pass a moment before the
// route Apple's host needs is up.

/** How often the network is tried after wake. */
export const WAKE_NETWORK_POLL_MS = 2_000;
/** Longest wait for the network before checking regardless. */
export const WAKE_NETWORK_MAX_WAIT_MS = 120_000;
/** A probe not answered within this long counts as no network. */
export const WAKE_PROBE_TIMEOUT_MS = 5_000;
/** How long after wake a request without network is retried instead of failing the check. */
export const WAKE_GRACE_MS = 120_000;

/** What the guard drives. */
export type WakeGuardDeps = {
  /** Electron's net.isOnline(): false is trusted, true is not. */
  isOnline: () => boolean;
  /** One cheap request; resolves on any HTTP answer, rejects when nothing answered. */
  probe: (signal: AbortSignal) => Promise<unknown>;
  /** Resumes the watch loop (which checks at once). */
  resume: () => Promise<unknown>;
  pause: () => void;
  /** True while the user paused checks (sleep and wake leave that alone). */
  isUserPaused: () => boolean;
  setTimer: (fn: () => void, ms: number) => () => void;
  now: () => number;
  log: (message: string, error?: unknown) => void;
  info?: (message: string) => void;
  /** The guard started or stopped waiting for the network. */
  onWaitingChange?: (isWaiting: boolean) => void;
};

/** Sleep and wake handling for the watch loop. */
export type WakeGuard = {
  onSuspend: () => void;
  onResume: () => void;
  /** True between a wake and the network answering. */
  isWaitingForNetwork: () => boolean;
  /** True for WAKE_GRACE_MS after a wake: a request without network is retried, not failed. */
  isWithinWakeGrace: () => boolean;
  stop: () => void;
};

/** Creates the guard; wire onSuspend/onResume to powerMonitor's suspend and resume. */
export function createWakeGuard(deps: WakeGuardDeps): WakeGuard {
  let cancelRetry: (() => void) | null = null;
  let isWaiting = false;
  let wokeAt: number | null = null;
  // A probe still in flight when the Mac sleeps again (or the app quits) must not resume it.
  let attemptGeneration = 0;

  const setWaiting = (waiting: boolean) => {
    if (isWaiting === waiting) return;
    isWaiting = waiting;
    deps.onWaitingChange?.(waiting);
  };
  const cancel = () => {
    attemptGeneration += 1;
    cancelRetry?.();
    cancelRetry = null;
  };
  const resumeNow = () => {
    cancel();
    setWaiting(false);
    if (deps.isUserPaused()) return;
    deps.resume().catch((error: unknown) => deps.log('Check failed', error));
  };
  const probeOnce = async (): Promise<boolean> => {
    if (!deps.isOnline()) return false;
    const controller = new AbortController();
    let cancelTimeout: () => void = () => undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      cancelTimeout = deps.setTimer(() => {
        controller.abort(new Error('The network did not answer in time'));
        resolve(false);
      }, WAKE_PROBE_TIMEOUT_MS);
    });
    const answered = deps.probe(controller.signal).then(
      () => true,
      () => false,
    );
    const isUp = await Promise.race([answered, timedOut]);
    cancelTimeout();
    return isUp;
  };
  const attempt = async (startedAt: number) => {
    const generation = attemptGeneration;
    const isUp = await probeOnce();
    if (generation !== attemptGeneration) return;
    const waited = deps.now() - startedAt;
    if (isUp) {
      if (waited > 0) deps.info?.(`Network answered ${Math.round(waited / 1000)} s after wake`);
      resumeNow();
      return;
    }
    if (waited >= WAKE_NETWORK_MAX_WAIT_MS) {
      deps.info?.('No network two minutes after wake: checking anyway');
      resumeNow();
      return;
    }
    cancelRetry = deps.setTimer(() => {
      cancelRetry = null;
      void attempt(startedAt);
    }, WAKE_NETWORK_POLL_MS);
  };

  return {
    onSuspend: () => {
      cancel();
      setWaiting(false);
      wokeAt = null;
      deps.pause();
    },
    onResume: () => {
      cancel();
      wokeAt = deps.now();
      if (deps.isUserPaused()) return;
      setWaiting(true);
      void attempt(wokeAt);
    },
    isWaitingForNetwork: () => isWaiting,
    isWithinWakeGrace: () => wokeAt !== null && deps.now() - wokeAt < WAKE_GRACE_MS,
    stop: () => {
      cancel();
      setWaiting(false);
    },
  };
}
