import { getCountryStore, isSupportedCountry } from '#shared/upstream/countries.ts';
import { APPLE_BASE_URL, APPLE_CHINA_BASE_URL, buildBuyPageUrl } from '#shared/upstream/urls.ts';
import type { AlertItem } from './alert-types.ts';

/** The links of one item of an alert: Apple's store page and buy page, when known. */
export type ItemLinkBuilders = {
  storeUrl: (item: Pick<AlertItem, 'storeSlug' | 'countryCode'>) => string | undefined;
  buyUrl: (item: Pick<AlertItem, 'countryCode'>) => string | undefined;
};

/**
 * Apple's page of a store: `{base}{slug}/` with the country's storefront path before the
 * base's own path, as Apple's site writes it (https://www.apple.com/retail/fifthavenue/,
 * https://www.apple.com/uk/retail/regentstreet/; China on apple.com.cn). `base` is
 * STORE_PAGE_BASE_URL, https://www.apple.com/retail/ by default.
 */
export function buildStorePageUrl(
  base: string,
  item: Pick<AlertItem, 'storeSlug' | 'countryCode'>,
): string | undefined {
  if (item.storeSlug === null || item.storeSlug === '') return undefined;
  const url = new URL(base);
  const code = item.countryCode.toUpperCase();
  const countryPath = isSupportedCountry(code) ? getCountryStore(code).path : '';
  const isAppleChina = code === 'CN' && url.origin === APPLE_BASE_URL;
  const origin = isAppleChina ? APPLE_CHINA_BASE_URL : url.origin;
  const prefix = countryPath === '' || isAppleChina ? '' : `/${countryPath}`;
  const basePath = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  return `${origin}${prefix}${basePath}${encodeURIComponent(item.storeSlug)}/`;
}

/**
 * Links for every item of one alert. The buy page is the product type's (`buy_page` of the
 * catalog, e.g. "buy-iphone/iphone-16-pro") in the store's country, on the same Apple origin
 * as the store pages; without a buy page in the catalog there is no buy link.
 */
export function createItemLinks(
  storePageBaseUrl: string,
  buyPagePath: string | null,
): ItemLinkBuilders {
  const appleOrigin = new URL(storePageBaseUrl).origin;
  return {
    storeUrl: (item) => buildStorePageUrl(storePageBaseUrl, item),
    buyUrl: (item) =>
      buyPagePath === null
        ? undefined
        : buildBuyPageUrl(appleOrigin, item.countryCode, buyPagePath),
  };
}

/** "Apple Fifth Avenue": a store as Apple names it, without doubling a name that has "Apple". */
export function formatAppleStoreName(storeName: string): string {
  return /^apple\s/i.test(storeName.trim()) ? storeName.trim() : `Apple ${storeName.trim()}`;
}
