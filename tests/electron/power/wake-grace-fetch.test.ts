import { describe, expect, it } from 'vitest';
import { WAKE_RETRY_MS, createWakeGraceFetch } from '#electron/power/wake-grace-fetch.ts';

const INIT = { method: 'GET' as const, headers: {} };

/** A fetch that finds no network for its first `failures` calls, then answers. */
function setUp(options: { failures: number; isWithinGrace: boolean }) {
  const slept: number[] = [];
  let calls = 0;
  const state = { isWithinGrace: options.isWithinGrace };
  const fetch = createWakeGraceFetch({
    fetch: () => {
      calls += 1;
      if (calls <= options.failures) {
        return Promise.reject(new Error('net::ERR_INTERNET_DISCONNECTED'));
      }
      return Promise.resolve(new Response('{}', { status: 200 }));
    },
    isWithinWakeGrace: () => state.isWithinGrace,
    sleep: (ms) => {
      slept.push(ms);
      return Promise.resolve();
    },
  });
  return { fetch, slept, state, countCalls: () => calls };
}

describe('requests in the minutes after wake', () => {
  it('retries a request that found no network instead of failing the check', async () => {
    const { fetch, slept, countCalls } = setUp({ failures: 3, isWithinGrace: true });
    const response = await fetch('https://www.apple.com/x', INIT);
    expect(response.status).toBe(200);
    expect(countCalls()).toBe(4);
    expect(slept).toEqual([WAKE_RETRY_MS, WAKE_RETRY_MS, WAKE_RETRY_MS]);
  });

  it('fails at once outside the grace, as any other network failure', async () => {
    const { fetch, countCalls } = setUp({ failures: 1, isWithinGrace: false });
    await expect(fetch('https://www.apple.com/x', INIT)).rejects.toThrow(/ERR_INTERNET/);
    expect(countCalls()).toBe(1);
  });

  it('stops retrying when the grace ends or the caller gave up', async () => {
    const ended = setUp({ failures: 10, isWithinGrace: true });
    const pending = ended.fetch('https://www.apple.com/x', INIT);
    ended.state.isWithinGrace = false;
    await expect(pending).rejects.toThrow(/ERR_INTERNET/);
    expect(ended.countCalls()).toBeLessThanOrEqual(2);
    const controller = new AbortController();
    controller.abort();
    const aborted = setUp({ failures: 10, isWithinGrace: true });
    await expect(
      aborted.fetch('https://www.apple.com/x', { ...INIT, signal: controller.signal }),
    ).rejects.toThrow(/ERR_INTERNET/);
    expect(aborted.countCalls()).toBe(1);
  });
});
