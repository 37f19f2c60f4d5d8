import { describe, expect, it } from 'vitest';
import { fetchPickupAvailability, type PickupClientDeps } from '#shared/upstream/client.ts';
import type { PickupAnswer, UpstreamFailure, UpstreamResult } from '#shared/upstream/types.ts';
import {
  buildJsonResponse,
  buildResponse,
  createScriptedFetch,
  readFixtureJson,
  readFixtureText,
} from './support.ts';

const NOW = 1_726_819_200_000;
const US_REQUEST = {
  countryCode: 'US',
  storeNumber: 'R072',
  partNumbers: ['MQ0E3LL/A', 'MQ1D3LL/A', 'MQ0N3LL/A', 'MQ163LL/A'],
};
const FULFILLMENT = '/shop/fulfillment-messages';
const PICKUP = '/shop/retail/pickup-message';

function buildDeps(fetch: PickupClientDeps['fetch'], extra: Partial<PickupClientDeps> = {}) {
  return {
    fetch,
    now: () => NOW,
    baseUrl: 'https://www.apple.com',
    shape: 'fulfillment-messages',
    ...extra,
  } satisfies PickupClientDeps;
}

function expectAnswer(result: UpstreamResult<PickupAnswer>): PickupAnswer {
  if (!result.ok) throw new Error(`expected an answer, got ${result.failure.message}`);
  return result.value;
}

function expectFailure(result: UpstreamResult<PickupAnswer>): UpstreamFailure {
  if (result.ok) throw new Error('expected a failure');
  return result.failure;
}

describe('fetchPickupAvailability', () => {
  it('asks the configured shape once and returns every store with its source and time', async () => {
    const { fetch, calls } = createScriptedFetch(() =>
      buildJsonResponse(readFixtureJson('fulfillment-messages-us-r072.json')),
    );
    const answer = expectAnswer(await fetchPickupAvailability(buildDeps(fetch), US_REQUEST));
    expect(calls).toHaveLength(1);
    expect(answer).toMatchObject({
      endpoint: 'fulfillment-messages',
      observedAt: NOW,
      url: calls[0]?.url,
    });
    expect(answer.stores).toHaveLength(12);
    expect(answer.stores[0]?.parts.map((part) => part.status)).toEqual([
      'unavailable',
      'unavailable',
      'available',
      'unavailable',
    ]);
  });

  it('sends browser-like headers with the buy page as Referer', async () => {
    const { fetch, calls } = createScriptedFetch(() =>
      buildJsonResponse(readFixtureJson('pickup-message-gb-r092.json')),
    );
    const request = {
      countryCode: 'GB',
      storeNumber: 'R092',
      partNumbers: ['MQ0G3ZD/A'],
      buyPagePath: 'buy-iphone/iphone-14-pro',
    };
    await fetchPickupAvailability(buildDeps(fetch, { shape: 'pickup-message' }), request);
    expect(calls[0]?.url).toMatch(/^https:\/\/www\.apple\.com\/uk\/shop\/retail\/pickup-message\?/);
    expect(calls[0]?.headers).toMatchObject({
      'Accept-Language': 'en-GB,en;q=0.9',
      Referer: 'https://www.apple.com/uk/shop/buy-iphone/iphone-14-pro',
    });
    expect(calls[0]?.headers['User-Agent']).toContain('Safari');
  });

  it('waits for the rate limiter of the upstream host before every request', async () => {
    const events: string[] = [];
    const { fetch } = createScriptedFetch((url) => {
      events.push(`fetch ${url.host}`);
      return buildResponse(404, '<html>Not found</html>', { 'content-type': 'text/html' });
    });
    const rateLimiter = {
      acquire: (host: string) => {
        events.push(`acquire ${host}`);
        return Promise.resolve();
      },
    };
    await fetchPickupAvailability(buildDeps(fetch, { rateLimiter }), {
      ...US_REQUEST,
      countryCode: 'CN',
      storeNumber: 'R320',
    });
    expect(events).toEqual([
      'acquire www.apple.com.cn',
      'fetch www.apple.com.cn',
      'acquire www.apple.com.cn',
      'fetch www.apple.com.cn',
    ]);
  });

  it('falls back to pickup-message when fulfillment-messages answers 404', async () => {
    const { fetch, calls } = createScriptedFetch((url) =>
      url.pathname.endsWith(FULFILLMENT)
        ? buildResponse(404, '<html>Page not found</html>', { 'content-type': 'text/html' })
        : buildJsonResponse(readFixtureJson('pickup-message-gb-r092.json')),
    );
    const answer = expectAnswer(
      await fetchPickupAvailability(buildDeps(fetch), {
        ...US_REQUEST,
        countryCode: 'GB',
        storeNumber: 'R092',
      }),
    );
    expect(calls.map((call) => new URL(call.url).pathname)).toEqual([
      '/uk' + FULFILLMENT,
      '/uk' + PICKUP,
    ]);
    expect(answer.endpoint).toBe('pickup-message');
    expect(answer.stores).toHaveLength(8);
  });

  it('falls back to fulfillment-messages when pickup-message answers a structure it cannot read', async () => {
    const { fetch, calls } = createScriptedFetch((url) =>
      url.pathname.endsWith(PICKUP)
        ? buildJsonResponse({ head: { status: '200' }, body: { pickup: { shops: [] } } })
        : buildJsonResponse(readFixtureJson('fulfillment-messages-us-r072.json')),
    );
    const answer = expectAnswer(
      await fetchPickupAvailability(buildDeps(fetch, { shape: 'pickup-message' }), US_REQUEST),
    );
    expect(calls).toHaveLength(2);
    expect(answer.endpoint).toBe('fulfillment-messages');
  });

  it('does not fall back when fallback is switched off', async () => {
    const { fetch, calls } = createScriptedFetch(() => buildResponse(404, 'Not found'));
    const failure = expectFailure(
      await fetchPickupAvailability(buildDeps(fetch, { fallbackShape: false }), US_REQUEST),
    );
    expect(calls).toHaveLength(1);
    expect(failure).toMatchObject({
      kind: 'http',
      httpStatus: 404,
      endpoint: 'fulfillment-messages',
    });
  });

  it('does not fall back after a block, so a blocked host is not asked twice', async () => {
    const { fetch, calls } = createScriptedFetch(() =>
      buildResponse(541, readFixtureText('blocked-page.html'), {
        'content-type': 'text/html',
        'retry-after': '1800',
      }),
    );
    const failure = expectFailure(await fetchPickupAvailability(buildDeps(fetch), US_REQUEST));
    expect(calls).toHaveLength(1);
    expect(failure).toMatchObject({ kind: 'blocked', httpStatus: 541, coolDownSeconds: 1800 });
  });

  it('reports the fallback failure with both stories when both shapes fail', async () => {
    const { fetch } = createScriptedFetch((url) =>
      url.pathname.endsWith(FULFILLMENT) ? buildResponse(404, 'Not found') : buildResponse(503, ''),
    );
    const failure = expectFailure(await fetchPickupAvailability(buildDeps(fetch), US_REQUEST));
    expect(failure).toMatchObject({ kind: 'blocked', httpStatus: 503, endpoint: 'pickup-message' });
    expect(failure.message).toMatch(/fulfillment-messages: .*404.*; then pickup-message: .*503/);
  });

  it('reports an HTML page as html without trying the other shape', async () => {
    const { fetch, calls } = createScriptedFetch(() =>
      buildResponse(200, readFixtureText('blocked-page.html'), { 'content-type': 'text/html' }),
    );
    const failure = expectFailure(await fetchPickupAvailability(buildDeps(fetch), US_REQUEST));
    expect(failure.kind).toBe('html');
    expect(calls).toHaveLength(1);
  });

  it('reports an errorMessage answer as upstream_error', async () => {
    const { fetch } = createScriptedFetch(() =>
      buildJsonResponse(readFixtureJson('fulfillment-messages-error.json')),
    );
    const failure = expectFailure(await fetchPickupAvailability(buildDeps(fetch), US_REQUEST));
    expect(failure).toMatchObject({ kind: 'upstream_error', httpStatus: 200 });
  });

  it('reports a refused connection as network, not as unavailable stock', async () => {
    const fetch: PickupClientDeps['fetch'] = () =>
      Promise.reject(
        new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:4010') }),
      );
    const failure = expectFailure(
      await fetchPickupAvailability(
        buildDeps(fetch, { baseUrl: 'http://localhost:4010' }),
        US_REQUEST,
      ),
    );
    expect(failure).toMatchObject({ kind: 'network', coolDownSeconds: 0 });
    expect(failure.message).toMatch(/ECONNREFUSED/);
    expect(failure.url).toMatch(/^http:\/\/localhost:4010\/shop\/fulfillment-messages\?/);
  });

  it('reports a request that outlives the timeout as network', async () => {
    const fetch: PickupClientDeps['fetch'] = (_url, init) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => {
          const reason: unknown = init.signal?.reason;
          reject(reason instanceof Error ? reason : new Error(String(reason)));
        });
      });
    const failure = expectFailure(
      await fetchPickupAvailability(buildDeps(fetch, { timeoutMs: 20 }), US_REQUEST),
    );
    expect(failure).toMatchObject({
      kind: 'network',
      message: 'Upstream did not answer within 20 ms',
    });
  });

  it('reports a body that breaks mid-read as network', async () => {
    const fetch: PickupClientDeps['fetch'] = () =>
      Promise.resolve({
        status: 200,
        headers: new Headers({ 'content-type': 'application/json' }),
        text: () => Promise.reject(new Error('terminated')),
      });
    const failure = expectFailure(await fetchPickupAvailability(buildDeps(fetch), US_REQUEST));
    expect(failure).toMatchObject({
      kind: 'network',
      message: 'Upstream request failed: terminated',
    });
  });

  it('throws for a caller bug before touching the network', async () => {
    const { fetch, calls } = createScriptedFetch(() => buildResponse(200, '{}'));
    await expect(
      fetchPickupAvailability(buildDeps(fetch), { ...US_REQUEST, partNumbers: [] }),
    ).rejects.toThrow(RangeError);
    expect(calls).toHaveLength(0);
  });

  it('accepts the global fetch as its fetch dependency', () => {
    const deps: PickupClientDeps = buildDeps(globalThis.fetch);
    expect(typeof deps.fetch).toBe('function');
  });
});
