// Heavy packages that a start does not need (Twilio, web-push, undici...) load when first used,
// so `npm start` does not spend its time loading them before it listens (issue 30).

/**
 * Runs `load` on the first call only; later calls share its result. A failed load rejects the
 * calls waiting for it, where the thing is used (a failed send, a 500), and the next call
 * tries again.
 */
export function loadOnFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return async () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return await loading;
  };
}
