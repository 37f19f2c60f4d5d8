import { COUNTRY_SEEDS } from './countries.ts';
import { getCountryDisplayName, localeToCountryCode } from './locale.ts';
import type { CountrySeed } from './types.ts';

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
