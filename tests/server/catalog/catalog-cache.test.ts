import { describe, expect, it, vi } from 'vitest';
import {
  computeEtag,
  createCachedBody,
  isEtagMatch,
  markCatalogChanged,
} from '#server/catalog/catalog-cache.ts';

/** A cache over a counter the test controls, on a clock the test controls. */
function createCounterCache(maxAgeMs = 60_000) {
  const state = { value: 1, clock: 0, loads: 0, isFailing: false };
  const onRefreshError = vi.fn();
  const cache = createCachedBody({
    load: async () => {
      state.loads += 1;
      if (state.isFailing) throw new Error('database unavailable');
      return { value: state.value };
    },
    serialize: (body) => JSON.stringify(body),
    maxAgeMs,
    onRefreshError,
    now: () => state.clock,
  });
  const readValue = async (): Promise<unknown> =>
    JSON.parse((await cache.read()).body.toString()) as unknown;
  return { state, cache, readValue, onRefreshError };
}

describe('cached catalog bodies', () => {
  it('loads once for concurrent readers and then serves from memory', async () => {
    const { state, cache } = createCounterCache();
    const bodies = await Promise.all([cache.read(), cache.read(), cache.read()]);
    await cache.read();
    expect(state.loads).toBe(1);
    expect(new Set(bodies.map((body) => body.etag)).size).toBe(1);
  });

  it('waits for fresh content after a catalog change in this process', async () => {
    const { state, readValue } = createCounterCache();
    expect(await readValue()).toEqual({ value: 1 });
    state.value = 2;
    expect(await readValue()).toEqual({ value: 1 });
    markCatalogChanged();
    expect(await readValue()).toEqual({ value: 2 });
  });

  it('refreshes an old body in the background, serving the previous one meanwhile', async () => {
    const { state, readValue } = createCounterCache(15_000);
    expect(await readValue()).toEqual({ value: 1 });
    state.value = 2;
    state.clock = 14_999;
    expect(await readValue()).toEqual({ value: 1 });
    expect(state.loads).toBe(1);
    state.clock = 15_000;
    expect(await readValue()).toEqual({ value: 1 });
    await vi.waitFor(() => expect(state.loads).toBe(2));
    expect(await readValue()).toEqual({ value: 2 });
  });

  it('keeps the previous body when a background refresh fails, and says so', async () => {
    const { state, readValue, onRefreshError } = createCounterCache(15_000);
    expect(await readValue()).toEqual({ value: 1 });
    state.isFailing = true;
    state.clock = 20_000;
    expect(await readValue()).toEqual({ value: 1 });
    await vi.waitFor(() => expect(onRefreshError).toHaveBeenCalledTimes(1));
    expect(await readValue()).toEqual({ value: 1 });
  });

  it('gives equal bodies one strong ETag and different bodies different ones', () => {
    const etag = computeEtag('[{"a":1}]');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(computeEtag('[{"a":1}]')).toBe(etag);
    expect(computeEtag('[{"a":2}]')).not.toBe(etag);
  });

  it('matches If-None-Match as RFC 9110 says: lists, weak tags and *', () => {
    const etag = '"abc"';
    expect(isEtagMatch('"abc"', etag)).toBe(true);
    expect(isEtagMatch('W/"abc"', etag)).toBe(true);
    expect(isEtagMatch('"x", "abc"', etag)).toBe(true);
    expect(isEtagMatch('*', etag)).toBe(true);
    expect(isEtagMatch('"abcd"', etag)).toBe(false);
    expect(isEtagMatch('abc', etag)).toBe(false);
    expect(isEtagMatch('', etag)).toBe(false);
    expect(isEtagMatch(undefined, etag)).toBe(false);
  });

  it('keeps a long body UTF-8 encoded and a short one as a string, each with its ETag', async () => {
    const longList = Array.from({ length: 400 }, (_, index) => ({ name: `Zürich ${index}` }));
    const serialize = (value: unknown): string => JSON.stringify(value);
    const long = await createCachedBody({
      load: async () => longList,
      serialize,
      maxAgeMs: 60_000,
    }).read();
    expect(Buffer.isBuffer(long.body)).toBe(true);
    expect(long.body.toString()).toBe(serialize(longList));
    expect(long.etag).toBe(computeEtag(serialize(longList)));
    const short = await createCachedBody({
      load: async () => [{ name: 'Zürich' }],
      serialize,
      maxAgeMs: 60_000,
    }).read();
    expect(short.body).toBe('[{"name":"Zürich"}]');
    expect(short.etag).toBe(computeEtag('[{"name":"Zürich"}]'));
  });
});
