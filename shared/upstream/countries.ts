import type { DistanceUnit } from './types.ts';

/** How Apple's online store addresses one country. */
export type CountryStore = {
  /** Path segment after the host ("uk", "hk/en"); empty for the US. */
  path: string;
  /** Value for Accept-Language, matching the locale the store directory lists. */
  acceptLanguage: string;
  /** Unit Apple uses for store distances there, used when the answer does not say. */
  distanceUnit: DistanceUnit;
  /**
   * The same store under another language's path ("hk" and "hk-zh" for Hong Kong's Chinese
   * store), as public checkers ask it; `path` stays the one Shelfwatch asks.
   */
  alternativePaths?: readonly string[];
};

// One entry per locale in Apple's store directory. Where Apple runs several languages for a
// country (Belgium, Switzerland, Hong Kong) the path is the one that locale uses.
const COUNTRY_STORES: Readonly<Record<string, CountryStore>> = {
  US: { path: '', acceptLanguage: 'en-US,en;q=0.9', distanceUnit: 'mi' },
  GB: { path: 'uk', acceptLanguage: 'en-GB,en;q=0.9', distanceUnit: 'mi' },
  CA: { path: 'ca', acceptLanguage: 'en-CA,en;q=0.9', distanceUnit: 'km' },
  AU: { path: 'au', acceptLanguage: 'en-AU,en;q=0.9', distanceUnit: 'km' },
  DE: { path: 'de', acceptLanguage: 'de-DE,de;q=0.9,en;q=0.8', distanceUnit: 'km' },
  FR: { path: 'fr', acceptLanguage: 'fr-FR,fr;q=0.9,en;q=0.8', distanceUnit: 'km' },
  JP: { path: 'jp', acceptLanguage: 'ja-JP,ja;q=0.9,en;q=0.8', distanceUnit: 'km' },
  CN: { path: 'cn', acceptLanguage: 'zh-CN,zh;q=0.9,en;q=0.8', distanceUnit: 'km' },
  IT: { path: 'it', acceptLanguage: 'it-IT,it;q=0.9,en;q=0.8', distanceUnit: 'km' },
  ES: { path: 'es', acceptLanguage: 'es-ES,es;q=0.9,en;q=0.8', distanceUnit: 'km' },
  NL: { path: 'nl', acceptLanguage: 'nl-NL,nl;q=0.9,en;q=0.8', distanceUnit: 'km' },
  BE: { path: 'be-fr', acceptLanguage: 'fr-BE,fr;q=0.9,en;q=0.8', distanceUnit: 'km' },
  AT: { path: 'at', acceptLanguage: 'de-AT,de;q=0.9,en;q=0.8', distanceUnit: 'km' },
  CH: { path: 'chfr', acceptLanguage: 'fr-CH,fr;q=0.9,en;q=0.8', distanceUnit: 'km' },
  SE: { path: 'se', acceptLanguage: 'sv-SE,sv;q=0.9,en;q=0.8', distanceUnit: 'km' },
  // Checkers ask Hong Kong's Chinese store too: /hk/ (Dgon5000/iphone-stock-watch-hk,
  // check_stock.py, pickup-message) and /hk-zh/ (ZoeRamirie/apple-store-monitor, 2025-10-06;
  // ENCHIGO/apple-pickup-watcher, data/generate.py).
  HK: {
    path: 'hk/en',
    acceptLanguage: 'en-HK,en;q=0.9',
    distanceUnit: 'km',
    alternativePaths: ['hk', 'hk-zh'],
  },
  MO: { path: 'mo', acceptLanguage: 'en-MO,en;q=0.9', distanceUnit: 'km' },
  TW: { path: 'tw', acceptLanguage: 'zh-TW,zh;q=0.9,en;q=0.8', distanceUnit: 'km' },
  SG: { path: 'sg', acceptLanguage: 'en-SG,en;q=0.9', distanceUnit: 'km' },
  // Not in the 2022 directory; the path as ENCHIGO/apple-pickup-watcher asks it (en_MY: /my).
  MY: { path: 'my', acceptLanguage: 'en-MY,en;q=0.9', distanceUnit: 'km' },
  KR: { path: 'kr', acceptLanguage: 'ko-KR,ko;q=0.9,en;q=0.8', distanceUnit: 'km' },
  TH: { path: 'th', acceptLanguage: 'th-TH,th;q=0.9,en;q=0.8', distanceUnit: 'km' },
  TR: { path: 'tr', acceptLanguage: 'tr-TR,tr;q=0.9,en;q=0.8', distanceUnit: 'km' },
  AE: { path: 'ae', acceptLanguage: 'en-AE,en;q=0.9', distanceUnit: 'km' },
  MX: { path: 'mx', acceptLanguage: 'es-MX,es;q=0.9,en;q=0.8', distanceUnit: 'km' },
  BR: { path: 'br', acceptLanguage: 'pt-BR,pt;q=0.9,en;q=0.8', distanceUnit: 'km' },
};

/** Upper-cases a country code and accepts "UK", the code Apple's own URLs use for GB. */
export function normalizeCountryCode(countryCode: string): string {
  const code = countryCode.trim().toUpperCase();
  return code === 'UK' ? 'GB' : code;
}

/** True when Shelfwatch knows how to address this country's online store. */
export function isSupportedCountry(countryCode: string): boolean {
  return Object.hasOwn(COUNTRY_STORES, normalizeCountryCode(countryCode));
}

/** Every supported country code, for catalog checks and tests. */
export function listSupportedCountries(): string[] {
  return Object.keys(COUNTRY_STORES);
}

/** Every path that addresses a country's store: its own first, then the alternatives. */
export function listCountryPaths(countryCode: string): string[] {
  const store = getCountryStore(countryCode);
  return [store.path, ...(store.alternativePaths ?? [])];
}

/** Looks up a country; throws because an unknown country is a caller bug, not an upstream state. */
export function getCountryStore(countryCode: string): CountryStore {
  const code = normalizeCountryCode(countryCode);
  const store = COUNTRY_STORES[code];
  if (!Object.hasOwn(COUNTRY_STORES, code) || store === undefined) {
    throw new RangeError(`Unsupported country code for Apple retail: ${countryCode}`);
  }
  return store;
}
