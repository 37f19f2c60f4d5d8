import { BROWSER_USER_AGENT, buildPageHeaders } from './browser-identity.ts';
import { getCountryStore, normalizeCountryCode } from './countries.ts';
import type { EndpointShape, PickupRequest } from './types.ts';

/** Apple's online store for every country except mainland China. */
export const APPLE_BASE_URL = 'https://www.apple.com';

/** Apple's online store for mainland China, a separate host with no country path. */
export const APPLE_CHINA_BASE_URL = 'https://www.apple.com.cn';

// What Apple's own product pages send from their availability overlay.
const JSON_ACCEPT = 'application/json, text/javascript, */*; q=0.01';

const ENDPOINT_PATHS: Readonly<Record<EndpointShape, string>> = {
  'fulfillment-messages': 'shop/fulfillment-messages',
  'pickup-message': 'shop/retail/pickup-message',
};

const APPLE_HOSTS = new Set(['apple.com', 'www.apple.com', 'apple.com.cn', 'www.apple.com.cn']);
const STORE_NUMBER_PATTERN = /^R\d{3,4}$/;

/** The endpoint shape a fallback tries after the given one. */
export function getOtherShape(shape: EndpointShape): EndpointShape {
  return shape === 'fulfillment-messages' ? 'pickup-message' : 'fulfillment-messages';
}

/** True when the base URL is Apple itself rather than a simulator or proxy. */
export function isAppleBaseUrl(baseUrl: string): boolean {
  return APPLE_HOSTS.has(new URL(baseUrl).hostname.toLowerCase());
}

/**
 * Resolves the country's store root, always ending in "/". Apple's own base moves China to
 * apple.com.cn; any other base (the simulator) keeps one host and uses a `/cn/` path so that
 * every country stays distinguishable there.
 */
export function resolveCountryBase(baseUrl: string, countryCode: string): string {
  const country = getCountryStore(countryCode);
  const isChina = normalizeCountryCode(countryCode) === 'CN';
  if (isAppleBaseUrl(baseUrl)) {
    const origin = isChina ? APPLE_CHINA_BASE_URL : APPLE_BASE_URL;
    return isChina || country.path === '' ? `${origin}/` : `${origin}/${country.path}/`;
  }
  const url = new URL(baseUrl);
  const basePath = url.pathname.replace(/\/+$/, '');
  const countryPath = country.path === '' ? '' : `${country.path}/`;
  return `${url.origin}${basePath}/${countryPath}`;
}

/** Builds the availability URL for one endpoint shape, in the query order Apple's pages use. */
export function buildPickupUrl(
  baseUrl: string,
  shape: EndpointShape,
  request: PickupRequest,
): string {
  const parts = normalizePartNumbers(request.partNumbers);
  const params: [string, string][] = [
    ['pl', 'true'],
    ['mts.0', 'regular'],
    ...parts.map((part, index): [string, string] => [`parts.${index}`, part]),
  ];
  if (request.searchNearby ?? true) params.push(['searchNearby', 'true']);
  params.push(buildTargetParam(request));
  const query = params.map(([key, value]) => `${key}=${encodeQueryValue(value)}`).join('&');
  return `${resolveCountryBase(baseUrl, request.countryCode)}${ENDPOINT_PATHS[shape]}?${query}`;
}

/** A country's buy page (default: the iPhone one), sent as Referer and fetched by the doctor. */
export function buildBuyPageUrl(
  baseUrl: string,
  countryCode: string,
  buyPagePath?: string,
): string {
  const page = (buyPagePath ?? 'buy-iphone').replace(/^\/+/, '').replace(/^shop\//, '');
  return `${resolveCountryBase(baseUrl, countryCode)}shop/${page}`;
}

/** The country's bag page, which the session warm-up visits before the first pickup request. */
export function buildBagPageUrl(baseUrl: string, countryCode: string): string {
  return `${resolveCountryBase(baseUrl, countryCode)}shop/bag`;
}

/**
 * Headers of a pickup request as the buy page's script sends it: the browser's User-Agent
 * (browser-identity.ts), a JSON Accept, the country's language and the buy page as Referer.
 *
 * The Referer stays although 2026 checkers get answers without one (jhdavis789, Dgon5000; see
 * ../shared/reference/apple/README.md, "Headers"): it is no longer required, but a browser's
 * same-origin request from the buy page always carries it (the default referrer policy sends
 * the full URL within one origin), so leaving it out would make the request less like a
 * browser's, not more. Nothing may depend on it being required (issue 40 drops the
 * simulator's rule that demanded it).
 */
export function buildPickupHeaders(
  countryCode: string,
  refererUrl: string,
): Record<string, string> {
  return {
    'User-Agent': BROWSER_USER_AGENT,
    Accept: JSON_ACCEPT,
    'Accept-Language': getCountryStore(countryCode).acceptLanguage,
    Referer: refererUrl,
  };
}

/** Headers of a page of the country's store opened in the browser (bag or buy page). */
export function buildCountryPageHeaders(countryCode: string): Record<string, string> {
  return buildPageHeaders(getCountryStore(countryCode).acceptLanguage);
}

/** Trims and de-duplicates part numbers; throws on an empty list, a caller bug. */
export function normalizePartNumbers(partNumbers: readonly string[]): string[] {
  const parts = [...new Set(partNumbers.map((part) => part.trim()))];
  if (parts.length === 0 || parts.some((part) => part === '')) {
    throw new RangeError('A pickup request needs at least one non-empty part number');
  }
  return parts;
}

function buildTargetParam(request: PickupRequest): [string, string] {
  if (request.storeNumber !== undefined) {
    const storeNumber = request.storeNumber.trim().toUpperCase();
    if (!STORE_NUMBER_PATTERN.test(storeNumber)) {
      throw new RangeError(`Not an Apple store number: ${request.storeNumber}`);
    }
    return ['store', storeNumber];
  }
  const location = request.location.trim();
  if (location === '') throw new RangeError('A pickup request needs a store or a location');
  return ['location', location];
}

// Apple's own pages leave the slash in part numbers ("MQ0E3LL/A") unescaped.
function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, '/');
}
