import type { EndpointShape, UpstreamFailure, UpstreamFailureKind } from './types.ts';

// First cool-downs after a block, from public reports (shared by the checkers that paced
// themselves out of Apple's 541s in 2025-2026): 5 minutes after a 541, 503 or 429. The
// caller doubles them on repeats (server/watch/egress). An HTML page where JSON was
// expected is usually a challenge page, so it is treated like a block too.
const BLOCKED_COOL_DOWN_SECONDS: Readonly<Record<number, number>> = {
  541: 300,
  503: 300,
  429: 300,
};
const HTML_COOL_DOWN_SECONDS = 600;
const SERVER_ERROR_COOL_DOWN_SECONDS = 60;
// A Retry-After beyond a day is more likely a broken header than a real instruction.
const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

/** HTTP statuses that mean "stop asking for a while" rather than a broken request. */
export function isBlockedStatus(httpStatus: number): boolean {
  return Object.hasOwn(BLOCKED_COOL_DOWN_SECONDS, httpStatus);
}

/** Builds a failure with no cool-down beyond ordinary backoff. */
export function createFailure(
  kind: UpstreamFailureKind,
  message: string,
  extra: Partial<Omit<UpstreamFailure, 'kind' | 'message'>> = {},
): UpstreamFailure {
  return { kind, message, coolDownSeconds: 0, ...extra };
}

/**
 * Classifies a non-2xx answer. Blocked statuses get a cool-down that honours Retry-After;
 * other 5xx get a short one, and 4xx none because retrying sooner changes nothing.
 */
export function createHttpFailure(
  httpStatus: number,
  retryAfter: string | null,
  nowMs: number,
): UpstreamFailure {
  const hinted = parseRetryAfter(retryAfter, nowMs);
  if (isBlockedStatus(httpStatus)) {
    const coolDownSeconds = hinted ?? BLOCKED_COOL_DOWN_SECONDS[httpStatus] ?? 0;
    return createFailure('blocked', `Upstream refused the request with HTTP ${httpStatus}`, {
      httpStatus,
      coolDownSeconds,
    });
  }
  const fallback = httpStatus >= 500 ? SERVER_ERROR_COOL_DOWN_SECONDS : 0;
  return createFailure('http', `Upstream answered HTTP ${httpStatus}`, {
    httpStatus,
    coolDownSeconds: hinted ?? fallback,
  });
}

/** Failure for an HTML page served where JSON was expected. */
export function createHtmlFailure(
  httpStatus: number,
  retryAfter: string | null,
  nowMs: number,
): UpstreamFailure {
  return createFailure('html', 'Upstream answered with an HTML page instead of JSON', {
    httpStatus,
    coolDownSeconds: parseRetryAfter(retryAfter, nowMs) ?? HTML_COOL_DOWN_SECONDS,
  });
}

/**
 * Reads Retry-After as delay-seconds or an HTTP date; returns whole seconds, or null when
 * the header is absent or unreadable so the caller's default applies.
 */
export function parseRetryAfter(header: string | null, nowMs: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (text === '') return null;
  const seconds = /^\d+$/.test(text) ? Number(text) : (Date.parse(text) - nowMs) / 1000;
  if (!Number.isFinite(seconds)) return null;
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, Math.ceil(seconds)));
}

/** True when the other endpoint shape might answer: this one is gone or speaks a format we cannot read. */
export function isFallbackWorthy(failure: UpstreamFailure): boolean {
  if (failure.kind === 'malformed') return true;
  return failure.kind === 'http' && (failure.httpStatus === 404 || failure.httpStatus === 410);
}

/** Tags a failure with the endpoint and URL that produced it. */
export function attachSource(
  failure: UpstreamFailure,
  endpoint: EndpointShape,
  url: string,
): UpstreamFailure {
  return { ...failure, endpoint, url };
}
