import { describe, expect, it } from 'vitest';
import {
  isSupportedCountry,
  listSupportedCountries,
  normalizeCountryCode,
} from '#shared/upstream/countries.ts';
import {
  buildBuyPageUrl,
  buildPickupHeaders,
  buildPickupUrl,
  resolveCountryBase,
} from '#shared/upstream/urls.ts';

const APPLE = 'https://www.apple.com';
const SIMULATOR = 'http://localhost:4010';
const PARTS = ['MQ0E3LL/A', 'MQ1D3LL/A'];

describe('buildPickupUrl', () => {
  it('builds the US fulfillment-messages URL with no country path and the query in Apple order', () => {
    const url = buildPickupUrl(APPLE, 'fulfillment-messages', {
      countryCode: 'US',
      storeNumber: 'R072',
      partNumbers: PARTS,
    });
    expect(url).toBe(
      'https://www.apple.com/shop/fulfillment-messages?pl=true&mts.0=regular' +
        '&parts.0=MQ0E3LL/A&parts.1=MQ1D3LL/A&searchNearby=true&store=R072',
    );
  });

  it('builds the US pickup-message URL under shop/retail', () => {
    const url = buildPickupUrl(APPLE, 'pickup-message', {
      countryCode: 'US',
      storeNumber: 'R072',
      partNumbers: PARTS,
    });
    expect(url).toBe(
      'https://www.apple.com/shop/retail/pickup-message?pl=true&mts.0=regular' +
        '&parts.0=MQ0E3LL/A&parts.1=MQ1D3LL/A&searchNearby=true&store=R072',
    );
  });

  it('puts the UK under /uk/ for both shapes', () => {
    const request = { countryCode: 'GB', storeNumber: 'R092', partNumbers: ['MQ0G3ZD/A'] };
    expect(buildPickupUrl(APPLE, 'fulfillment-messages', request)).toBe(
      'https://www.apple.com/uk/shop/fulfillment-messages?pl=true&mts.0=regular&parts.0=MQ0G3ZD/A&searchNearby=true&store=R092',
    );
    expect(buildPickupUrl(APPLE, 'pickup-message', request)).toMatch(
      /^https:\/\/www\.apple\.com\/uk\/shop\/retail\/pickup-message\?/,
    );
  });

  it('sends mainland China to www.apple.com.cn with no country path for both shapes', () => {
    const request = { countryCode: 'CN', storeNumber: 'R320', partNumbers: ['MQ0D3CH/A'] };
    expect(buildPickupUrl(APPLE, 'fulfillment-messages', request)).toBe(
      'https://www.apple.com.cn/shop/fulfillment-messages?pl=true&mts.0=regular&parts.0=MQ0D3CH/A&searchNearby=true&store=R320',
    );
    expect(buildPickupUrl(APPLE, 'pickup-message', request)).toBe(
      'https://www.apple.com.cn/shop/retail/pickup-message?pl=true&mts.0=regular&parts.0=MQ0D3CH/A&searchNearby=true&store=R320',
    );
  });

  it('keeps a simulator base and its path, with China under /cn/ so countries stay apart', () => {
    const request = { countryCode: 'CN', storeNumber: 'R320', partNumbers: ['MQ0D3CH/A'] };
    expect(buildPickupUrl(SIMULATOR, 'fulfillment-messages', request)).toMatch(
      /^http:\/\/localhost:4010\/cn\/shop\/fulfillment-messages\?/,
    );
    expect(
      buildPickupUrl(`${SIMULATOR}/apple/`, 'pickup-message', { ...request, countryCode: 'US' }),
    ).toMatch(/^http:\/\/localhost:4010\/apple\/shop\/retail\/pickup-message\?/);
  });

  it('queries by location instead of store, encoding spaces but not the part slash', () => {
    const url = buildPickupUrl(APPLE, 'fulfillment-messages', {
      countryCode: 'uk',
      location: 'SW1A 1AA',
      partNumbers: ['MQ0G3ZD/A'],
    });
    expect(url).toBe(
      'https://www.apple.com/uk/shop/fulfillment-messages?pl=true&mts.0=regular&parts.0=MQ0G3ZD/A&searchNearby=true&location=SW1A%201AA',
    );
  });

  it('drops searchNearby when the request opts out and de-duplicates part numbers', () => {
    const url = buildPickupUrl(APPLE, 'fulfillment-messages', {
      countryCode: 'US',
      storeNumber: 'r072',
      partNumbers: ['MQ0E3LL/A', ' MQ0E3LL/A '],
      searchNearby: false,
    });
    expect(url).toBe(
      'https://www.apple.com/shop/fulfillment-messages?pl=true&mts.0=regular&parts.0=MQ0E3LL/A&store=R072',
    );
  });

  it('rejects requests that are caller bugs: no parts, a bad store number, an unknown country', () => {
    const base = { countryCode: 'US', storeNumber: 'R072', partNumbers: PARTS };
    expect(() => buildPickupUrl(APPLE, 'pickup-message', { ...base, partNumbers: [] })).toThrow(
      RangeError,
    );
    expect(() => buildPickupUrl(APPLE, 'pickup-message', { ...base, storeNumber: '72' })).toThrow(
      /store number/,
    );
    expect(() => buildPickupUrl(APPLE, 'pickup-message', { ...base, countryCode: 'ZZ' })).toThrow(
      /Unsupported country/,
    );
  });
});

describe('country map', () => {
  it('maps country codes to Apple store paths', () => {
    const roots = ['US', 'GB', 'CA', 'AU', 'DE', 'FR', 'JP', 'HK'].map((code) =>
      resolveCountryBase(APPLE, code),
    );
    expect(roots).toEqual([
      'https://www.apple.com/',
      'https://www.apple.com/uk/',
      'https://www.apple.com/ca/',
      'https://www.apple.com/au/',
      'https://www.apple.com/de/',
      'https://www.apple.com/fr/',
      'https://www.apple.com/jp/',
      'https://www.apple.com/hk/en/',
    ]);
  });

  it('covers every locale of Apple store directory, and Malaysia, and accepts UK as GB', () => {
    // The 25 locales of the 2022 directory, and Malaysia (store seed, R742).
    expect(listSupportedCountries()).toHaveLength(26);
    expect(isSupportedCountry('MY')).toBe(true);
    expect(normalizeCountryCode(' uk ')).toBe('GB');
    expect(isSupportedCountry('gb')).toBe(true);
    expect(isSupportedCountry('ZZ')).toBe(false);
    expect(isSupportedCountry('toString')).toBe(false);
  });
});

describe('request headers', () => {
  it('sends browser-like headers with the country language and the buy page as Referer', () => {
    const referer = buildBuyPageUrl(APPLE, 'GB', 'buy-iphone/iphone-14-pro');
    const headers = buildPickupHeaders('GB', referer);
    expect(referer).toBe('https://www.apple.com/uk/shop/buy-iphone/iphone-14-pro');
    expect(headers['User-Agent']).toMatch(/^Mozilla\/5\.0 \(Macintosh;.*Safari\//);
    expect(headers.Accept).toContain('application/json');
    expect(headers['Accept-Language']).toBe('en-GB,en;q=0.9');
    expect(headers.Referer).toBe(referer);
  });

  it('defaults the Referer to the country iPhone buy page, on apple.com.cn for China', () => {
    expect(buildBuyPageUrl(APPLE, 'US')).toBe('https://www.apple.com/shop/buy-iphone');
    expect(buildBuyPageUrl(APPLE, 'CN', '/shop/buy-mac')).toBe(
      'https://www.apple.com.cn/shop/buy-mac',
    );
  });
});
