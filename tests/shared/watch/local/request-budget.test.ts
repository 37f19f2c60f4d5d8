import { describe, expect, it } from 'vitest';
import { createRequestBudget, type BudgetStore } from '#shared/watch/local/index.ts';
import { createMemoryBudgetStore } from './support.ts';

const PACING = { burst: 2, ratePerMinute: 1, minGapMs: 3000 };

/** A budget on a clock that its sleeps move, over the given store. */
function createBudget(
  store: BudgetStore,
  clock: { now: number },
  baseUrl = 'https://www.apple.com',
) {
  const sleeps: number[] = [];
  const budget = createRequestBudget({
    store,
    baseUrl,
    pacing: PACING,
    now: () => clock.now,
    sleep: (ms) => {
      sleeps.push(ms);
      clock.now += ms;
      return Promise.resolve();
    },
  });
  return { budget, sleeps };
}

describe("the machine's request budget", () => {
  it('waits out the gap before a request, and refuses past the burst without waiting', async () => {
    const clock = { now: 1_000_000 };
    const { budget, sleeps } = createBudget(createMemoryBudgetStore(), clock);
    expect(await budget.take()).toEqual({ kind: 'taken', at: 1_000_000 });
    expect(await budget.take()).toEqual({ kind: 'taken', at: 1_003_000 });
    expect(sleeps).toEqual([3000]);
    expect(await budget.take()).toEqual({ kind: 'no_budget' });
    expect(sleeps).toEqual([3000]);
  });

  it('keeps one budget per upstream origin and forgets those that are full again', async () => {
    const clock = { now: 1_000_000 };
    const store = createMemoryBudgetStore();
    const apple = createBudget(store, clock, 'https://www.apple.com/').budget;
    const simulator = createBudget(store, clock, 'http://localhost:4010').budget;
    await apple.take();
    await apple.take();
    expect(await simulator.take()).toMatchObject({ kind: 'taken' });
    expect(Object.keys((store.read() as { addresses: object }).addresses)).toEqual([
      'https://www.apple.com',
      'http://localhost:4010',
    ]);
    // Two minutes on, the simulator's bucket is full again: the next write leaves it out.
    clock.now += 120_000;
    await apple.take();
    expect(Object.keys((store.read() as { addresses: object }).addresses)).toEqual([
      'https://www.apple.com',
    ]);
  });

  it('answers a cool-down with its end to every watcher, then lets one request through', async () => {
    const clock = { now: 1_000_000 };
    const store = createMemoryBudgetStore();
    const first = createBudget(store, clock).budget;
    const second = createBudget(store, clock).budget;
    await first.coolDown(1_300_000);
    expect(await second.take()).toEqual({ kind: 'cooling_down', until: 1_300_000 });
    clock.now = 1_300_000;
    expect(await second.take()).toEqual({ kind: 'taken', at: 1_300_000 });
    expect(await first.take()).toEqual({ kind: 'no_budget' });
  });

  it('starts afresh from a stored budget it cannot read', async () => {
    const clock = { now: 1_000_000 };
    const store = createMemoryBudgetStore();
    await store.update(() => ({ stored: { version: 7, junk: true }, result: undefined }));
    const { budget } = createBudget(store, clock);
    expect(await budget.take()).toEqual({ kind: 'taken', at: 1_000_000 });
    expect(store.read()).toMatchObject({ version: 1 });
  });
});
