import { COUNTRY_SEEDS } from './countries.ts';
import type { CountrySeed } from './types.ts';

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

/**
 * The country a store-directory locale belongs to: the seeded entry when there is one,
 * otherwise a new one named by Intl, so a directory import can create missing countries.
 */
export function describeCountryFromLocale(locale: string): CountrySeed | undefined {
  const countryCode = localeToCountryCode(locale);
  if (countryCode === undefined) return undefined;
  const localeCode = locale.trim().replaceAll('-', '_');
  const seeded = COUNTRY_SEEDS.find((country) => country.locale_code === localeCode);
  if (seeded !== undefined) return seeded;
  return {
    country_code: countryCode,
    locale_code: localeCode,
    display_name: getCountryDisplayName(countryCode),
  };
}
