import { describe, expect, it } from 'vitest';
import {
  BROWSER_CURRENT_SINCE,
  BROWSER_REVIEWED_ON,
  BROWSER_USER_AGENT,
  buildPageHeaders,
  describeBrowserAge,
} from '#shared/upstream/browser-identity.ts';
import {
  buildBagPageUrl,
  buildCountryPageHeaders,
  buildPickupHeaders,
} from '#shared/upstream/urls.ts';

const APPLE = 'https://www.apple.com';

describe('the browser Shelfwatch presents itself as', () => {
  it('is a desktop Safari in the frozen form Safari itself sends, naming one version', () => {
    expect(BROWSER_USER_AGENT).toMatch(
      /^Mozilla\/5\.0 \(Macintosh; Intel Mac OS X 10_15_7\) AppleWebKit\/605\.1\.15 \(KHTML, like Gecko\) Version\/(\d+)\.\d+ Safari\/605\.1\.15$/,
    );
    expect(BROWSER_USER_AGENT).not.toContain('Chrome');
    expect(BROWSER_USER_AGENT).toContain('Version/27.0');
  });

  it('carries the dates it was current since and last reviewed, in that order', () => {
    expect(BROWSER_CURRENT_SINCE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(BROWSER_REVIEWED_ON >= BROWSER_CURRENT_SINCE).toBe(true);
  });

  it('is due for an update only once it is more than a year old', () => {
    const since = Date.parse(`${BROWSER_CURRENT_SINCE}T00:00:00Z`);
    expect(describeBrowserAge(Date.parse('2026-11-28T12:00:00Z'))).toEqual({
      ageDays: 75,
      isStale: false,
    });
    expect(describeBrowserAge(since + 365 * 86_400_000).isStale).toBe(false);
    expect(describeBrowserAge(since + 366 * 86_400_000).isStale).toBe(true);
  });

  it('is the User-Agent of every pickup request and every page, from one constant', () => {
    const pickup = buildPickupHeaders('DE', 'https://www.apple.com/de/shop/buy-iphone');
    expect(pickup['User-Agent']).toBe(BROWSER_USER_AGENT);
    expect(pickup.Referer).toBe('https://www.apple.com/de/shop/buy-iphone');
    expect(buildCountryPageHeaders('DE')).toEqual({
      'User-Agent': BROWSER_USER_AGENT,
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'Accept-Language': 'de-DE,de;q=0.9,en;q=0.8',
    });
    expect(buildPageHeaders('ja-JP')['Accept-Language']).toBe('ja-JP');
  });
});

describe('bag page address', () => {
  it('is the country store root plus shop/bag, on apple.com.cn for China and kept on a simulator', () => {
    expect(buildBagPageUrl(APPLE, 'US')).toBe('https://www.apple.com/shop/bag');
    expect(buildBagPageUrl(APPLE, 'GB')).toBe('https://www.apple.com/uk/shop/bag');
    expect(buildBagPageUrl(APPLE, 'HK')).toBe('https://www.apple.com/hk/en/shop/bag');
    expect(buildBagPageUrl(APPLE, 'CN')).toBe('https://www.apple.com.cn/shop/bag');
    expect(buildBagPageUrl('http://localhost:4010', 'CN')).toBe(
      'http://localhost:4010/cn/shop/bag',
    );
  });
});
