import { CookieJar } from 'tough-cookie';
import { buildPageHeaders } from './browser-identity.ts';
import type { FetchLike, FetchResponseLike } from './client.ts';
import { isBlockedStatus } from './failures.ts';

// A browser session in front of an injected fetch, as ENCHIGO/apple-pickup-watcher keeps one
// (crates/apw-core/src/apple.rs, `ensure_warm`, 2026-09): before the first pickup request of a
// country, one visit to that country's bag page (`{store root}shop/bag`), whose cookies are
// kept and sent with every later request. ENCHIGO's measurements behind it: on a scrutinised
// network, pickup requests without cookies got 541 8 times in 10 and with cookies 0 in 10; the
// bag page (dynamic) sets the whole store session (`dssid2`, `as_dc`, `dssf`, ...) while a buy
// page (cached by the CDN) sets only `geo`; and a session that was blocked stays blocked while
// a fresh one passes. Hence the rules here:
// - one visit at a time per country; callers arriving meanwhile wait for it;
// - a visit counts only if the jar then holds a cookie for the pickup endpoint;
// - a failed visit never stops the pickup request, and is not retried for a minute;
// - a block on pickup-message ends the session (a new jar), and the next request visits again;
// - a session older than an hour is renewed (our choice: no report gives the store session's
//   lifetime; an hour costs at most one page a country an hour).
// A blocked visit stands in for the pickup request it preceded, which is then not sent: the
// address is blocked either way and one more request would only keep the block tripped.
// The cookies live in memory: one jar per wrapper, so one per egress address on the server.

/** A fetch answer whose Set-Cookie headers can be read one by one, as the global Response's can. */
export type CookieResponseLike = FetchResponseLike & {
  headers: { getSetCookie?: () => string[] };
};

/** The fetch the warm-up wraps; the global fetch and undici's satisfy it. */
export type CookieFetchLike = (
  url: string,
  init: Parameters<FetchLike>[1],
) => Promise<CookieResponseLike>;

/** How a bag-page visit went. */
export type WarmUpOutcome = 'warm' | 'no_cookie' | 'http' | 'blocked' | 'network';

/** One bag-page visit, for logs and `shelfwatch doctor`; cookie names only, never values. */
export type WarmUpEvent = {
  url: string;
  outcome: WarmUpOutcome;
  status: number | null;
  cookieNames: string[];
  durationMs: number;
  detail: string | null;
};

/** What the warm-up needs from its host. */
export type SessionWarmUpOptions = {
  fetch: CookieFetchLike;
  now: () => number;
  /** Visit the bag page again once the session is this old; default an hour. */
  maxSessionAgeMs?: number;
  /** After a visit that set no session, ask without one this long; default a minute. */
  retryAfterFailureMs?: number;
  /** Give up on a visit after this long; default 10 s (the pickup request still goes). */
  visitTimeoutMs?: number;
  onWarmUp?: (event: WarmUpEvent) => void;
};

/** The wrapped fetch and a way to drop the session. */
export type SessionWarmUp = {
  fetch: FetchLike;
  /** Forgets every cookie and visit: the next pickup request starts a new session. */
  forgetSession: () => void;
};

type CountrySession = {
  warmedAt: number | null;
  lastVisitAt: number | null;
  visiting: Promise<CookieResponseLike | undefined> | null;
};

const PICKUP_MESSAGE_PATH = '/shop/retail/pickup-message';
const PICKUP_PATHS = [PICKUP_MESSAGE_PATH, '/shop/fulfillment-messages'];
const DEFAULT_ACCEPT_LANGUAGE = 'en-US,en;q=0.9';

/** Wraps `fetch` with a per-country browser session (bag-page visit and cookies). */
export function createSessionWarmUp(options: SessionWarmUpOptions): SessionWarmUp {
  const maxSessionAgeMs = options.maxSessionAgeMs ?? 60 * 60_000;
  const retryAfterFailureMs = options.retryAfterFailureMs ?? 60_000;
  const visitTimeoutMs = options.visitTimeoutMs ?? 10_000;
  let jar = new CookieJar();
  let sessions = new Map<string, CountrySession>();

  const isDue = (session: CountrySession, at: number): boolean => {
    if (session.warmedAt !== null) return at - session.warmedAt >= maxSessionAgeMs;
    return session.lastVisitAt === null || at - session.lastVisitAt >= retryAfterFailureMs;
  };

  const visit = async (
    pickupUrl: string,
    session: CountrySession,
    init: Parameters<FetchLike>[1],
  ): Promise<CookieResponseLike | undefined> => {
    const url = `${findStoreRoot(pickupUrl)}shop/bag`;
    const sessionJar = jar;
    const startedAt = options.now();
    session.lastVisitAt = startedAt;
    const report = (event: Omit<WarmUpEvent, 'url' | 'durationMs'>): void =>
      options.onWarmUp?.({ url, durationMs: options.now() - startedAt, ...event });
    const timeout = AbortSignal.timeout(visitTimeoutMs);
    let response: CookieResponseLike;
    let bodyText: string;
    try {
      const cookie = await sessionJar.getCookieString(url);
      const language = readHeader(init.headers, 'accept-language') ?? DEFAULT_ACCEPT_LANGUAGE;
      response = await options.fetch(url, {
        method: 'GET',
        headers: { ...buildPageHeaders(language), ...(cookie === '' ? {} : { Cookie: cookie }) },
        signal: init.signal === undefined ? timeout : AbortSignal.any([init.signal, timeout]),
      });
      // Read to the end so the connection can be reused; the page itself is of no interest.
      bodyText = await response.text();
    } catch (error) {
      report({ outcome: 'network', status: null, cookieNames: [], detail: describeError(error) });
      return undefined;
    }
    await storeCookies(sessionJar, url, response);
    // What the pickup request will carry, not merely what the page set somewhere.
    const cookieNames = (await sessionJar.getCookies(pickupUrl)).map((cookie) => cookie.key);
    const { status } = response;
    if (isBlockedStatus(status)) {
      report({ outcome: 'blocked', status, cookieNames, detail: null });
      return { status, headers: response.headers, text: () => Promise.resolve(bodyText) };
    }
    const isPage = status >= 200 && status <= 299;
    if (isPage && cookieNames.length > 0) {
      session.warmedAt = options.now();
      report({ outcome: 'warm', status, cookieNames, detail: null });
    } else {
      report({ outcome: isPage ? 'no_cookie' : 'http', status, cookieNames, detail: null });
    }
    return undefined;
  };

  // Concurrent first requests of a country share one visit instead of each making their own.
  const warmUp = async (
    url: string,
    init: Parameters<FetchLike>[1],
  ): Promise<CookieResponseLike | undefined> => {
    const storeRoot = findStoreRoot(url);
    let session = sessions.get(storeRoot);
    if (session === undefined) {
      session = { warmedAt: null, lastVisitAt: null, visiting: null };
      sessions.set(storeRoot, session);
    }
    if (session.visiting !== null) return await session.visiting;
    if (!isDue(session, options.now())) return undefined;
    const visiting = visit(url, session, init);
    session.visiting = visiting;
    try {
      return await visiting;
    } finally {
      session.visiting = null;
    }
  };

  const forgetSession = (): void => {
    jar = new CookieJar();
    sessions = new Map();
  };

  const fetchWithSession: FetchLike = async (url, init) => {
    const isPickup = isPickupUrl(url);
    if (isPickup) {
      const blocked = await warmUp(url, init);
      if (blocked !== undefined) {
        forgetSession();
        return blocked;
      }
    }
    const requestJar = jar;
    const cookie = await requestJar.getCookieString(url);
    const hasOwnCookie = readHeader(init.headers, 'cookie') !== undefined;
    const headers =
      cookie === '' || hasOwnCookie ? init.headers : { ...init.headers, Cookie: cookie };
    const response = await options.fetch(url, { ...init, headers });
    await storeCookies(requestJar, url, response);
    if (isPickup && isSessionBlocked(url, response)) forgetSession();
    return response;
  };

  return { fetch: fetchWithSession, forgetSession };
}

/** The country's store root of an Apple URL ("https://www.apple.com/uk/"), where `shop/` starts. */
export function findStoreRoot(url: string): string {
  const parsed = new URL(url);
  const at = parsed.pathname.indexOf('/shop/');
  const path = at === -1 ? '/' : parsed.pathname.slice(0, at + 1);
  return `${parsed.origin}${path}`;
}

function isPickupUrl(url: string): boolean {
  const { pathname } = new URL(url);
  return PICKUP_PATHS.some((path) => pathname.endsWith(path));
}

// fulfillment-messages answers 541 to everyone since 2026 (../shared/reference/apple/README.md,
// "Endpoint"): its 541 says nothing about this session, so only pickup-message's blocks and
// challenge pages (HTML where JSON was expected) end it.
function isSessionBlocked(url: string, response: CookieResponseLike): boolean {
  if (!new URL(url).pathname.endsWith(PICKUP_MESSAGE_PATH)) return false;
  if (isBlockedStatus(response.status)) return true;
  const isOk = response.status >= 200 && response.status <= 299;
  return isOk && (response.headers.get('content-type') ?? '').toLowerCase().includes('text/html');
}

async function storeCookies(
  jar: CookieJar,
  url: string,
  response: CookieResponseLike,
): Promise<void> {
  const headers = response.headers;
  // Without getSetCookie only one cookie is readable: joined Set-Cookie headers cannot be told apart.
  const lines =
    typeof headers.getSetCookie === 'function'
      ? headers.getSetCookie()
      : [headers.get('set-cookie')].filter((line): line is string => line !== null);
  for (const line of lines) {
    // A cookie the jar refuses (wrong domain, bad syntax) is simply not kept, as in a browser.
    await jar.setCookie(line, url, { ignoreError: true });
  }
}

function readHeader(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function describeError(error: unknown): string {
  if (error instanceof Error || error instanceof DOMException) {
    if (error.name === 'TimeoutError') return 'the bag page did not answer in time';
    return error.message;
  }
  return String(error);
}
