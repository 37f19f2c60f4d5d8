import { getCountryStore } from './countries.ts';
import { attachSource, createFailure, isFallbackWorthy } from './failures.ts';
import { interpretPickupResponse } from './parse-response.ts';
import type {
  EndpointShape,
  PickupAnswer,
  PickupRequest,
  UpstreamFailure,
  UpstreamResult,
} from './types.ts';
import {
  buildBuyPageUrl,
  buildPickupHeaders,
  buildPickupUrl,
  getOtherShape,
  normalizePartNumbers,
} from './urls.ts';

/** The slice of a fetch Response the client reads; the global Response satisfies it. */
export type FetchResponseLike = {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
};

/** The slice of fetch the client calls; the global fetch satisfies it. */
export type FetchLike = (
  url: string,
  init: { method: 'GET'; headers: Record<string, string>; signal?: AbortSignal },
) => Promise<FetchResponseLike>;

/** Paces requests per upstream host; the server passes one token bucket for all pollers. */
export type RateLimiter = { acquire(host: string): Promise<void> };

/** Everything the client needs from its host, injected so it stays pure and testable. */
export type PickupClientDeps = {
  fetch: FetchLike;
  now: () => number;
  rateLimiter?: RateLimiter;
  /** "https://www.apple.com" for real stores, "http://localhost:4010" for the simulator. */
  baseUrl: string;
  shape: EndpointShape;
  /** Try the other shape after a 404/410 or an unreadable answer; defaults to true. */
  fallbackShape?: boolean;
  /** Abort a request after this long; defaults to 20 s. */
  timeoutMs?: number;
};

const DEFAULT_TIMEOUT_MS = 20_000;

/**
 * Asks upstream which of the requested parts can be picked up at the store and its
 * neighbours. Never throws for upstream trouble: every failure comes back typed.
 */
export async function fetchPickupAvailability(
  deps: PickupClientDeps,
  request: PickupRequest,
): Promise<UpstreamResult<PickupAnswer>> {
  // Validate before touching the network so a caller bug throws instead of reading as an outage.
  getCountryStore(request.countryCode);
  normalizePartNumbers(request.partNumbers);
  const shapes: EndpointShape[] =
    (deps.fallbackShape ?? true) ? [deps.shape, getOtherShape(deps.shape)] : [deps.shape];
  const failures: UpstreamFailure[] = [];
  for (const shape of shapes) {
    const result = await fetchOneShape(deps, request, shape);
    if (result.ok) return result;
    failures.push(result.failure);
    if (!isFallbackWorthy(result.failure)) break;
  }
  return { ok: false, failure: combineFailures(failures) };
}

async function fetchOneShape(
  deps: PickupClientDeps,
  request: PickupRequest,
  shape: EndpointShape,
): Promise<UpstreamResult<PickupAnswer>> {
  const url = buildPickupUrl(deps.baseUrl, shape, request);
  const referer = buildBuyPageUrl(deps.baseUrl, request.countryCode, request.buyPagePath);
  const headers = buildPickupHeaders(request.countryCode, referer);
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let status: number;
  let contentType: string | null;
  let retryAfter: string | null;
  let bodyText: string;
  await deps.rateLimiter?.acquire(new URL(url).host);
  try {
    const response = await deps.fetch(url, {
      method: 'GET',
      headers,
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.status;
    contentType = response.headers.get('content-type');
    retryAfter = response.headers.get('retry-after');
    bodyText = await response.text();
  } catch (error) {
    const failure = createFailure('network', describeNetworkError(error, timeoutMs));
    return { ok: false, failure: attachSource(failure, shape, url) };
  }
  const observedAt = deps.now();
  const parsed = interpretPickupResponse(
    { status, contentType, retryAfter, bodyText },
    observedAt,
    {
      requestedParts: normalizePartNumbers(request.partNumbers),
      defaultUnit: getCountryStore(request.countryCode).distanceUnit,
    },
  );
  if (!parsed.ok) return { ok: false, failure: attachSource(parsed.failure, shape, url) };
  return { ok: true, value: { ...parsed.value, endpoint: shape, url, observedAt } };
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error || error instanceof DOMException) {
    if (error.name === 'TimeoutError') return `Upstream did not answer within ${timeoutMs} ms`;
    if (error.name === 'AbortError') return 'Upstream request was aborted';
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `Upstream request failed: ${error.message}${cause}`;
  }
  return `Upstream request failed: ${String(error)}`;
}

// When both shapes fail, the last failure decides the cool-down (a block on the fallback
// matters more than the 404 that sent us there), and the message keeps both stories.
function combineFailures(failures: UpstreamFailure[]): UpstreamFailure {
  const last = failures[failures.length - 1];
  if (last === undefined) return createFailure('network', 'No upstream request was made');
  if (failures.length === 1) return last;
  const story = failures.map((failure) => `${failure.endpoint ?? '?'}: ${failure.message}`);
  return { ...last, message: story.join('; then ') };
}
