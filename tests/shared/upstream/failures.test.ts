import { describe, expect, it } from 'vitest';
import { isFallbackWorthy, parseRetryAfter } from '#shared/upstream/failures.ts';
import {
  interpretPickupResponse,
  type RawPickupResponse,
} from '#shared/upstream/parse-response.ts';
import type { UpstreamFailure } from '#shared/upstream/types.ts';
import { readFixtureText } from './support.ts';

const NOW = Date.parse('2024-09-20T08:00:00Z');
const JSON_TYPE = 'application/json;charset=utf-8';

function answer(overrides: Partial<RawPickupResponse>): RawPickupResponse {
  return { status: 200, contentType: JSON_TYPE, retryAfter: null, bodyText: '{}', ...overrides };
}

function failureOf(raw: RawPickupResponse): UpstreamFailure {
  const result = interpretPickupResponse(raw, NOW, { requestedParts: ['MQ0E3LL/A'] });
  if (result.ok) throw new Error('expected a failure');
  return result.failure;
}

describe('interpretPickupResponse failures', () => {
  it('reports HTTP 541 as blocked with the five-minute first cool-down checkers report', () => {
    const failure = failureOf(
      answer({ status: 541, bodyText: readFixtureText('blocked-page.html') }),
    );
    expect(failure).toMatchObject({ kind: 'blocked', httpStatus: 541, coolDownSeconds: 300 });
  });

  it('reports HTTP 503 as blocked and honours Retry-After in seconds', () => {
    const failure = failureOf(answer({ status: 503, retryAfter: '120', bodyText: '' }));
    expect(failure).toMatchObject({ kind: 'blocked', httpStatus: 503, coolDownSeconds: 120 });
  });

  it('honours Retry-After given as an HTTP date', () => {
    const retryAfter = new Date(NOW + 45_000).toUTCString();
    expect(failureOf(answer({ status: 503, retryAfter })).coolDownSeconds).toBe(45);
  });

  it('reports an HTML page served with 200 as html with a cool-down', () => {
    const failure = failureOf(
      answer({
        contentType: 'text/html;charset=UTF-8',
        bodyText: readFixtureText('blocked-page.html'),
      }),
    );
    expect(failure).toMatchObject({ kind: 'html', httpStatus: 200 });
    expect(failure.coolDownSeconds).toBeGreaterThan(0);
  });

  it('reports an HTML page even when it claims to be JSON', () => {
    const bodyText = `\n  ${readFixtureText('blocked-page.html')}`;
    expect(failureOf(answer({ bodyText })).kind).toBe('html');
  });

  it('reports other HTTP errors as http, with a short cool-down only for server errors', () => {
    expect(failureOf(answer({ status: 404, bodyText: '<html>Not found</html>' }))).toMatchObject({
      kind: 'http',
      httpStatus: 404,
      coolDownSeconds: 0,
    });
    expect(failureOf(answer({ status: 500 }))).toMatchObject({ kind: 'http', coolDownSeconds: 60 });
  });

  it('reports an errorMessage with no stores as upstream_error carrying the message', () => {
    const failure = failureOf(
      answer({ bodyText: readFixtureText('fulfillment-messages-error.json') }),
    );
    expect(failure.kind).toBe('upstream_error');
    expect(failure.message).toMatch(/trouble finding stores/);
  });

  it('reports an errorMessage on the body.stores shape as upstream_error', () => {
    const bodyText = JSON.stringify({
      head: { status: '200' },
      body: { errorMessage: 'Try later' },
    });
    expect(failureOf(answer({ bodyText }))).toMatchObject({
      kind: 'upstream_error',
      message: 'Try later',
    });
  });

  it('reports Apple’s "Product(s) Invalid or not buyable" as invalid_parts, so the caller can find the part', () => {
    const bodyText = JSON.stringify({
      head: { status: '200' },
      body: { errorMessage: 'Product(s) Invalid or not buyable' },
    });
    expect(failureOf(answer({ bodyText }))).toMatchObject({
      kind: 'invalid_parts',
      coolDownSeconds: 0,
    });
  });

  it('reports a non-200 head.status with no stores as upstream_error', () => {
    const bodyText = JSON.stringify({
      head: { status: '302', data: { url: 'https://secure.store.apple.com/shop/signIn' } },
      body: {},
    });
    expect(failureOf(answer({ bodyText })).message).toMatch(/302/);
  });

  it('reports JSON that does not parse as malformed', () => {
    const failure = failureOf(answer({ bodyText: '{"head":{"status":"200"},"body":{"sto' }));
    expect(failure).toMatchObject({ kind: 'malformed', httpStatus: 200, coolDownSeconds: 0 });
    expect(failureOf(answer({ bodyText: '' })).kind).toBe('malformed');
  });

  it('reports JSON of the wrong structure as malformed, naming where it broke', () => {
    expect(failureOf(answer({ bodyText: '[]' })).kind).toBe('malformed');
    expect(failureOf(answer({ bodyText: '{"head":{"status":"200"}}' })).message).toMatch(/body/);
    const storesNotAList = JSON.stringify({ body: { content: { pickupMessage: { stores: {} } } } });
    expect(failureOf(answer({ bodyText: storesNotAList })).message).toMatch(
      /content\.pickupMessage\.stores/,
    );
    const noStoresAnywhere = JSON.stringify({ body: { content: { deliveryMessage: {} } } });
    expect(failureOf(answer({ bodyText: noStoresAnywhere })).kind).toBe('malformed');
  });

  it('reports an answer whose every store lacks a store number as malformed', () => {
    const bodyText = JSON.stringify({ body: { stores: [{ storeName: 'Nowhere' }, null] } });
    expect(failureOf(answer({ bodyText })).kind).toBe('malformed');
  });

  it('still reads stores when an errorMessage accompanies them', () => {
    const document = JSON.parse(readFixtureText('pickup-message-gb-r092.json')) as {
      body: Record<string, unknown>;
    };
    document.body.errorMessage = 'Some stores could not be checked.';
    const result = interpretPickupResponse(answer({ bodyText: JSON.stringify(document) }), NOW);
    expect(result.ok && result.value.stores.length).toBe(8);
  });
});

describe('failure helpers', () => {
  it('reads Retry-After defensively: clamps, rounds up, ignores garbage', () => {
    expect(parseRetryAfter(null, NOW)).toBeNull();
    expect(parseRetryAfter('soon', NOW)).toBeNull();
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter(new Date(NOW - 60_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter('999999999', NOW)).toBe(86_400);
  });

  it('falls back to the other shape only for a missing endpoint or an unreadable answer', () => {
    const base = { message: '', coolDownSeconds: 0 };
    expect(isFallbackWorthy({ ...base, kind: 'http', httpStatus: 404 })).toBe(true);
    expect(isFallbackWorthy({ ...base, kind: 'malformed' })).toBe(true);
    expect(isFallbackWorthy({ ...base, kind: 'http', httpStatus: 500 })).toBe(false);
    expect(isFallbackWorthy({ ...base, kind: 'blocked', httpStatus: 541 })).toBe(false);
    expect(isFallbackWorthy({ ...base, kind: 'html' })).toBe(false);
    expect(isFallbackWorthy({ ...base, kind: 'upstream_error' })).toBe(false);
  });
});
