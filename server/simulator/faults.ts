import { setTimeout as sleep } from 'node:timers/promises';
import type { SimulatorState } from './sim-state.ts';

// What each injected fault sends back. Blocks and HTML pages look like Apple's edge: an
// HTML error page, no JSON, and no Retry-After unless the caller asked for one.

/** A complete HTTP answer as the pickup route sends it. */
export type RawReply = { status: number; headers: Record<string, string>; body: string };

/** How long a `slow` fault holds an answer at most, whatever the fault's length. */
export const SLOW_FAULT_MAX_DELAY_MS = 25_000;

// How often a held answer looks again whether its fault has ended or been cleared.
const SLOW_FAULT_CHECK_MS = 100;

const HTML_HEADERS = {
  'content-type': 'text/html; charset=UTF-8',
  'cache-control': 'no-cache, no-store',
};

/** The error page Apple's edge serves to callers it refuses or cannot serve. */
export function renderErrorPage(): string {
  return [
    '<!doctype html>',
    '<html lang="en-US">',
    '<head><meta charset="utf-8" /><title>Apple</title><meta name="robots" content="noindex" /></head>',
    '<body class="page-error"><main id="main" class="main" role="main">',
    '<section class="section section-hero">',
    '<h1 class="typography-headline">We’re unable to complete your request at this time.</h1>',
    '<p class="typography-intro">Please try again later.</p>',
    '<p><a href="https://www.apple.com/shop">Continue shopping</a></p>',
    '</section></main></body>',
    '</html>',
    '',
  ].join('\n');
}

/** About the size of the "Page Not Found" page a dead Apple endpoint answers with (~128 KB). */
export const DEAD_ENDPOINT_PAGE_BYTES = 128 * 1024;

let deadEndpointPage: string | undefined;

/**
 * The large "Page Not Found" page `/shop/fulfillment-messages` answers with today. Most of
 * Apple's page is its global navigation and footer; the filler stands for that so a
 * client reads as many bytes before it can tell the answer is not JSON.
 */
export function renderPageNotFound(): string {
  if (deadEndpointPage !== undefined) return deadEndpointPage;
  const head = [
    '<!DOCTYPE html>',
    '<html lang="en-US" class="no-js">',
    '<head><meta charset="utf-8" /><title>Page Not Found - Apple</title>',
    '<meta name="robots" content="noindex" /></head>',
    '<body class="page-404"><main id="main" role="main">',
    '<section class="section-404"><h1>The page you’re looking for can’t be found.</h1>',
    '<form action="/us/search" method="get"><input type="search" name="q" aria-label="Search apple.com" /></form>',
    '</section>',
    '<footer id="ac-globalfooter"><nav aria-label="Apple Directory"><ul>',
  ].join('\n');
  const tail = '</ul></nav></footer></main></body>\n</html>\n';
  const links: string[] = [];
  let size = head.length + tail.length;
  for (let index = 0; size < DEAD_ENDPOINT_PAGE_BYTES; index += 1) {
    const link = `<li class="ac-gf-directory-column-section-item"><a class="ac-gf-directory-column-section-link" href="/shop/go/directory/${index}" data-analytics-title="directory ${index}">Directory entry ${index}</a></li>\n`;
    links.push(link);
    size += link.length;
  }
  deadEndpointPage = `${head}\n${links.join('')}${tail}`;
  return deadEndpointPage;
}

/** HTTP 541 with the large "Page Not Found" page: a dead endpoint, whatever was asked. */
export function buildDeadEndpointReply(): RawReply {
  return { status: 541, headers: { ...HTML_HEADERS }, body: renderPageNotFound() };
}

/** HTTP 541 or 503 with the error page, and Retry-After only when one was configured. */
export function buildBlockedReply(
  status: 541 | 503,
  retryAfterSeconds: number | undefined,
): RawReply {
  const headers: Record<string, string> = { ...HTML_HEADERS };
  if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
  return { status, headers, body: renderErrorPage() };
}

/** A 200 whose body is an HTML page where JSON was expected, as bot screens answer. */
export function buildHtmlReply(): RawReply {
  return { status: 200, headers: { ...HTML_HEADERS }, body: renderErrorPage() };
}

/** The JSON answer cut off mid-way, as a dropped connection behind a proxy leaves it. */
export function truncateJson(jsonText: string): string {
  return jsonText.slice(0, Math.max(1, Math.floor(jsonText.length / 2)));
}

/**
 * Holds a request while a `slow` fault lasts, up to SLOW_FAULT_MAX_DELAY_MS of real time.
 * The fault's end is read from the injected clock, so a test that moves its clock or
 * clears the fault releases held requests without waiting out the delay.
 */
export async function waitOutSlowFault(
  state: SimulatorState,
  signal: AbortSignal,
  maxDelayMs: number = SLOW_FAULT_MAX_DELAY_MS,
): Promise<void> {
  const startedAt = performance.now();
  while (performance.now() - startedAt < maxDelayMs && !signal.aborted) {
    if (state.getActiveFault()?.kind !== 'slow') return;
    try {
      await sleep(SLOW_FAULT_CHECK_MS, undefined, { signal });
    } catch {
      return;
    }
  }
}
