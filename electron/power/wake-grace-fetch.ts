// The watch loop's fetch in the minutes after wake. A request that finds no network (net.fetch
// rejects: no route, no DNS, the connection reset as Wi-Fi rejoins) never reached Apple, so
// while the wake grace lasts it is tried again a few seconds later instead of failing the
// check: a failure there would back the stores off and show "!" for a network that was only
// still waking. An HTTP answer of any status is Apple's and passes through at once, and a
// request its caller aborted (the upstream client's own timeout) is not retried.

/** Wait between tries of a request that found no network. */
export const WAKE_RETRY_MS = 2_000;

/** The fetch shape the watch loop calls. */
export type WatchFetch = (
  url: string,
  init: { method: 'GET'; headers: Record<string, string>; signal?: AbortSignal },
) => Promise<Response>;

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** Wraps a fetch so network failures within the wake grace are retried, not reported. */
export function createWakeGraceFetch(deps: {
  fetch: WatchFetch;
  isWithinWakeGrace: () => boolean;
  sleep: (ms: number) => Promise<void>;
  log?: (message: string) => void;
}): WatchFetch {
  return async (url, init) => {
    for (let tries = 1; ; tries += 1) {
      try {
        return await deps.fetch(url, init);
      } catch (error) {
        if (isAborted(init.signal) || !deps.isWithinWakeGrace()) throw error;
        deps.log?.(`No network yet after wake (try ${tries}): retrying`);
        await deps.sleep(WAKE_RETRY_MS);
        // The caller may have given up (its own timeout) while this waited.
        if (isAborted(init.signal)) throw error;
      }
    }
  };
}
