import { describe, expect, it } from 'vitest';
import { loadOnFirstUse } from '#server/base/load-on-first-use.ts';

describe('loadOnFirstUse', () => {
  it('loads on the first call only, and callers arriving meanwhile share that load', async () => {
    let loads = 0;
    const load = loadOnFirstUse(async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { loaded: loads };
    });
    expect(loads).toBe(0);
    const [first, second] = await Promise.all([load(), load()]);
    const third = await load();
    expect(loads).toBe(1);
    expect(second).toBe(first);
    expect(third).toBe(first);
  });

  it('rejects the callers of a failed load with its error, and loads again on the next call', async () => {
    let loads = 0;
    const failure = new Error('cannot load');
    const load = loadOnFirstUse(async () => {
      loads += 1;
      if (loads === 1) throw failure;
      return 'loaded';
    });
    const results = await Promise.allSettled([load(), load()]);
    expect(results).toEqual([
      { status: 'rejected', reason: failure },
      { status: 'rejected', reason: failure },
    ]);
    expect(await load()).toBe('loaded');
    expect(loads).toBe(2);
  });
});
