// The one browser Shelfwatch presents itself as to Apple: a current desktop Safari on a Mac.
// Every Apple request (pickup answers, the session warm-up, buy pages) takes its User-Agent
// from here, so updating the browser is a change to this file only.
//
// Why Safari: it is what a Mac shopping on apple.com runs, and it sends no client hints, so a
// Safari User-Agent with plain headers is a consistent whole. A Chrome User-Agent without the
// `sec-ch-ua` headers every Chrome sends is a script's tell (ENCHIGO/apple-pickup-watcher,
// crates/apw-core/src/apple.rs, RequestProfile, 2026-09).
//
// Where it comes from: Safari freezes the OS ("Intel Mac OS X 10_15_7") and WebKit
// ("605.1.15") parts of its User-Agent; only `Version/` moves. Safari 27.0 shipped with
// macOS 27 on 2026-09-14 (a public 2026-09-24 note of the current Safari, and 2026 code and
// device measurements quoting "Version/27.0"); no later version is on record here, so 27.0 is
// the current Safari as of 2026-11-28.
//
// When to update: every September, when Safari's next major ships with macOS (then
// "Version/28.0"), and whenever a point release is common enough to be the one most Macs
// send. Change BROWSER_USER_AGENT and BROWSER_CURRENT_SINCE together; `shelfwatch doctor`
// warns once the string is older than BROWSER_MAX_AGE_DAYS. Never rotate or randomise it per
// request: a browser that changes version between two requests is itself a tell.

/** The User-Agent every request to Apple sends: desktop Safari 27.0 on macOS. */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/27.0 Safari/605.1.15';

/** The day BROWSER_USER_AGENT became the current Safari (its release), YYYY-MM-DD. */
export const BROWSER_CURRENT_SINCE = '2026-09-14';

/** The day BROWSER_USER_AGENT was last confirmed current, YYYY-MM-DD. */
export const BROWSER_REVIEWED_ON = '2026-11-28';

/** Safari ships a major a year: a string older than this is no longer what Macs send. */
export const BROWSER_MAX_AGE_DAYS = 365;

// What Safari asks for when it opens a page (a navigation), as opposed to a script's fetch.
const PAGE_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const DAY_MS = 86_400_000;

/** How old the User-Agent is on `nowMs`, and whether it is due for an update. */
export function describeBrowserAge(nowMs: number): { ageDays: number; isStale: boolean } {
  const ageDays = Math.floor((nowMs - Date.parse(`${BROWSER_CURRENT_SINCE}T00:00:00Z`)) / DAY_MS);
  return { ageDays, isStale: ageDays > BROWSER_MAX_AGE_DAYS };
}

/** Headers of a page opened in the browser (bag page, buy page) in the given language. */
export function buildPageHeaders(acceptLanguage: string): Record<string, string> {
  return {
    'User-Agent': BROWSER_USER_AGENT,
    Accept: PAGE_ACCEPT,
    'Accept-Language': acceptLanguage,
  };
}
