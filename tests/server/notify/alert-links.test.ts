import { describe, expect, it } from 'vitest';
import {
  buildStorePageUrl,
  createItemLinks,
  formatAppleStoreName,
} from '#server/notify/alert-links.ts';

const BASE = 'https://www.apple.com/retail/';

describe('alert links', () => {
  it('links Apple’s store page with the country’s storefront path', () => {
    expect(buildStorePageUrl(BASE, { storeSlug: 'unionsquare', countryCode: 'US' })).toBe(
      'https://www.apple.com/retail/unionsquare/',
    );
    expect(buildStorePageUrl(BASE, { storeSlug: 'regentstreet', countryCode: 'GB' })).toBe(
      'https://www.apple.com/uk/retail/regentstreet/',
    );
    expect(buildStorePageUrl(BASE, { storeSlug: null, countryCode: 'US' })).toBeUndefined();
  });

  it('links the buy page of the product type in the store’s country, and none without one', () => {
    const links = createItemLinks(BASE, '/shop/buy-iphone/iphone-18-pro');
    expect(links.buyUrl({ countryCode: 'US' })).toBe(
      'https://www.apple.com/shop/buy-iphone/iphone-18-pro',
    );
    expect(links.buyUrl({ countryCode: 'GB' })).toBe(
      'https://www.apple.com/uk/shop/buy-iphone/iphone-18-pro',
    );
    expect(createItemLinks(BASE, null).buyUrl({ countryCode: 'US' })).toBeUndefined();
  });

  it('names a store whose name already says Apple once', () => {
    expect(formatAppleStoreName('Apple Park Visitor Center')).toBe('Apple Park Visitor Center');
    expect(formatAppleStoreName('Fifth Avenue')).toBe('Apple Fifth Avenue');
  });
});
