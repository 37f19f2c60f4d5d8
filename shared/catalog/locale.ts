// Pure Intl look-ups, free of the store seed: the web app imports this file, and the seed
// (store-seed.json, some 340 KB) must stay out of its bundle. describeCountryFromLocale, which
// needs the seeded countries, lives in country-from-locale.ts.

// Apple writes locales with an underscore ("en_US", "zh_CN"); Intl wants a hyphen.
function toLanguageTag(locale: string): string {
  return locale.trim().replaceAll('_', '-');
}

/** Country code of a store-directory locale: en_US -> US, fr_CA -> CA; undefined if none. */
export function localeToCountryCode(locale: string): string | undefined {
  try {
    const region = new Intl.Locale(toLanguageTag(locale)).region;
    // Numeric UN M49 regions ("es-419") are areas, not countries with stores.
    return region !== undefined && /^[A-Z]{2}$/.test(region) ? region : undefined;
  } catch {
    return undefined;
  }
}

/** English name of a country code, falling back to the code where Intl has no names. */
export function getCountryDisplayName(countryCode: string): string {
  if (typeof Intl.DisplayNames !== 'function') return countryCode;
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(countryCode) ?? countryCode;
  } catch {
    return countryCode;
  }
}
