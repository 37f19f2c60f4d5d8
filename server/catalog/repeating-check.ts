/** Where a schedule reports its runs. */
export type SyncScheduleLog = {
  info: (details: Record<string, unknown>, message: string) => void;
  error: (details: Record<string, unknown>, message: string) => void;
};

/**
 * Runs `check` after `firstCheckAfterMs`, then every `everyMs`, one run at a time; a failure
 * is logged with `failureMessage` and the schedule goes on. The timer never keeps the process
 * alive. Returns a function that stops the schedule and waits for a run in progress.
 */
export function startRepeatingCheck(options: {
  check: () => Promise<void>;
  everyMs: number;
  firstCheckAfterMs: number;
  log: SyncScheduleLog;
  failureMessage: string;
}): () => Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let isStopped = false;

  const schedule = (delayMs: number): void => {
    if (isStopped) return;
    timer = setTimeout(() => {
      running = options
        .check()
        .catch((error: unknown) => options.log.error({ err: error }, options.failureMessage))
        .finally(() => {
          running = undefined;
          schedule(options.everyMs);
        });
    }, delayMs);
    timer.unref();
  };
  schedule(options.firstCheckAfterMs);

  return async () => {
    isStopped = true;
    if (timer !== undefined) clearTimeout(timer);
    await running;
  };
}
