import DataLoader from 'dataloader';

/** Keys one statement reads at most: small enough that several connections work at once. */
export const READ_BATCH_SIZE = 25;

/**
 * A loader that sends the keys asked for during one turn of the event loop to `read` together
 * (DataLoader, no memoising: callers keep their own caches). Requests reach the server in
 * separate I/O callbacks, so DataLoader's default (the end of the current tick) would batch
 * nothing between them; waiting for setImmediate gathers every request read in the same poll
 * phase. Under load that shares one round trip among many requests, and idle it adds no wait.
 */
export function createBatchLoader<K, V>(
  read: (keys: readonly K[]) => Promise<readonly (V | Error)[]>,
  maxBatchSize: number = READ_BATCH_SIZE,
): (key: K) => Promise<V> {
  const loader = new DataLoader<K, V>(read, {
    cache: false,
    maxBatchSize,
    batchScheduleFn: (dispatch) => setImmediate(dispatch),
  });
  return (key) => loader.load(key);
}
