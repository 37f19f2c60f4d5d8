import {
  parseWatchState,
  REQUEST_WINDOW_MS,
  type LocalWatchState,
} from '#shared/watch/local/index.ts';

// The watch loop saves its memory (with the times of its requests, which the next run takes
// from its bucket) when a check ends. A quit in the middle of a check ends the process before
// that, and the next start would think those requests were never sent: after a quick
// relaunch it could spend Apple's whole burst again. So the app notes when each request goes
// out and, before quitting, adds those not yet saved to the saved memory.

/** Request times of the check in flight, written into the saved memory on quit. */
export type RequestMemory = {
  /** A request went out now. */
  record: () => void;
  /** The loop saved its memory, with every request it had sent. */
  markSaved: () => void;
  /** Adds the unsaved request times to the saved memory; answers how many it added. */
  persist: () => number;
};

/** Creates the memory over the loop's saved state. */
export function createRequestMemory(deps: {
  now: () => number;
  loadState: () => unknown;
  saveState: (state: LocalWatchState) => void;
}): RequestMemory {
  let unsaved: number[] = [];
  return {
    record: () => {
      unsaved.push(deps.now());
    },
    markSaved: () => {
      unsaved = [];
    },
    persist: () => {
      const count = unsaved.length;
      if (count === 0) return 0;
      const now = deps.now();
      const saved = parseWatchState(deps.loadState());
      saved.recent_requests = [
        ...saved.recent_requests.filter((at) => now - at < REQUEST_WINDOW_MS),
        ...unsaved,
      ];
      deps.saveState(saved);
      unsaved = [];
      return count;
    },
  };
}
