import { describe, expect, it } from 'vitest';
import { REQUEST_WINDOW_MS, parseWatchState } from '#shared/watch/local/index.ts';
import { createRequestMemory } from '#electron/app/request-memory.ts';

function setUp(saved: unknown) {
  const store = { watch: saved };
  const clock = { now: 1_000_000 };
  const memory = createRequestMemory({
    now: () => clock.now,
    loadState: () => store.watch,
    saveState: (state) => {
      store.watch = state;
    },
  });
  return { memory, store, clock };
}

describe('requests of a check interrupted by quitting', () => {
  it('adds the requests not yet saved to the saved memory, so the next start counts them', () => {
    const earlier = parseWatchState(null);
    earlier.recent_requests = [1_000_000 - REQUEST_WINDOW_MS - 1, 999_000];
    const { memory, store, clock } = setUp(earlier);
    memory.record();
    clock.now += 3_000;
    memory.record();
    expect(memory.persist()).toBe(2);
    expect(parseWatchState(store.watch).recent_requests).toEqual([999_000, 1_000_000, 1_003_000]);
    // Persisted once: a second quit signal writes nothing more.
    expect(memory.persist()).toBe(0);
  });

  it('adds nothing the loop already saved with its own memory', () => {
    const { memory, store } = setUp(null);
    memory.record();
    memory.markSaved();
    expect(memory.persist()).toBe(0);
    expect(store.watch).toBeNull();
  });

  it('starts a fresh memory when the saved one is unreadable, keeping the requests', () => {
    const { memory, store } = setUp({ version: 99 });
    memory.record();
    memory.persist();
    expect(parseWatchState(store.watch).recent_requests).toEqual([1_000_000]);
  });
});
