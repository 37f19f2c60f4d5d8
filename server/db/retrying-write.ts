import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits between the runs of a write: together about 15 s, longer than PostgreSQL takes to
 * come back after a crash (the embedded cluster's supervisor restarts it within seconds).
 */
export const WRITE_RETRY_DELAYS_MS: readonly number[] = [100, 250, 500, 1000, 2000, 4000, 7000];

/**
 * Runs `write`, and again after each of `delaysMs` while it throws; throws the last error.
 * For bookkeeping that must follow something already done and not to be done twice (a message
 * delivered): the write is repeated, never the deed. `write` must be safe to run again.
 */
export async function retryWrite<T>(
  write: () => Promise<T>,
  options: { delaysMs?: readonly number[]; sleep?: (ms: number) => Promise<void> } = {},
): Promise<T> {
  const delays = options.delaysMs ?? WRITE_RETRY_DELAYS_MS;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      const wait = delays[attempt];
      if (wait === undefined) throw error;
      await sleep(wait);
    }
  }
}
