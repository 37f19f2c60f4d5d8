import { parseBuyPage, type BuyPageProduct } from '#shared/catalog/buy-page.ts';
import { buildCountryPageHeaders } from '#shared/upstream/index.ts';

// Reads one buy page for `catalog sync-models` and says what came of it: its products, a
// redirect away from the page (Apple retires a buy page by redirecting it: the iPhone 17 Pro
// page answers 301 to the iPhone overview since 2026-09-11, reference README "A retired buy
// page redirects"), or why nothing could be read.

/** One buy page of one country. */
export type BuyPageVisit = {
  countryCode: string;
  /** The page's path under a country's store ("/shop/buy-iphone/iphone-17"). */
  page: string;
  url: string;
};

/** What reading one page came to. */
export type BuyPageOutcome =
  | { kind: 'read'; products: BuyPageProduct[]; notes: string[] }
  | { kind: 'redirected'; status: number; location: string }
  | { kind: 'failed'; problem: string };

// A redirect within the page itself (a trailing slash, a deeper path) is followed this often.
const MAX_OWN_REDIRECTS = 3;

/** Whether a redirect target is still the page (the same path, with a slash or deeper). */
function isSamePage(target: URL, pageUrl: URL): boolean {
  const own = pageUrl.pathname.replace(/\/+$/, '');
  return (
    target.origin === pageUrl.origin &&
    (target.pathname === own || target.pathname.startsWith(`${own}/`))
  );
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Explains an empty page by what it carried. */
function describeEmptyPage(read: ReturnType<typeof parseBuyPage>): string {
  if (read.problems.length > 0) return read.problems.join('; ');
  return read.hasSelectionData || read.hasMetrics
    ? 'its product data lists no part number'
    : 'it carries neither PRODUCT_SELECTION_BOOTSTRAP nor script#metrics';
}

/**
 * Fetches and reads one page. Redirects are not followed blindly: one within the page is, one
 * elsewhere is reported as such. Never throws; an error answer or an unreadable page is a
 * `failed` outcome naming the page.
 */
export async function readBuyPage(
  visit: BuyPageVisit,
  fetchPage: typeof fetch,
): Promise<BuyPageOutcome> {
  const headers = buildCountryPageHeaders(visit.countryCode);
  if (!URL.canParse(visit.url)) return { kind: 'failed', problem: `${visit.url}: not a URL` };
  const pageUrl = new URL(visit.url);
  let url = pageUrl;
  for (let hop = 0; ; hop += 1) {
    let response: Response;
    try {
      response = await fetchPage(url.href, { headers, redirect: 'manual' });
    } catch (error) {
      return { kind: 'failed', problem: `${visit.url}: request failed (${describeError(error)})` };
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (location === null) {
        return {
          kind: 'failed',
          problem: `${visit.url}: HTTP ${response.status} without a Location`,
        };
      }
      const target = URL.canParse(location, url) ? new URL(location, url) : undefined;
      if (target === undefined) {
        return {
          kind: 'failed',
          problem: `${visit.url}: HTTP ${response.status} to a bad Location`,
        };
      }
      if (!isSamePage(target, pageUrl)) {
        return { kind: 'redirected', status: response.status, location: target.href };
      }
      if (hop >= MAX_OWN_REDIRECTS) {
        return { kind: 'failed', problem: `${visit.url}: redirects in circles` };
      }
      url = target;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { kind: 'failed', problem: `${visit.url}: HTTP ${response.status}` };
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      return {
        kind: 'failed',
        problem: `${visit.url}: answer cut short (${describeError(error)})`,
      };
    }
    const read = parseBuyPage(text);
    if (read.products.length === 0) {
      return { kind: 'failed', problem: `${visit.url}: no products (${describeEmptyPage(read)})` };
    }
    return {
      kind: 'read',
      products: read.products,
      notes: read.problems.map((problem) => `${visit.url}: ${problem}; the other shape was read`),
    };
  }
}
