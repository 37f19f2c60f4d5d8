import type { CountrySeed } from './types.ts';

// locale_code is the locale Apple's store directory files the country's stores under (not
// the language a visitor reads), because stores join countries on it.

/** Countries of the curated seed, in display order. */
export const COUNTRY_SEEDS: readonly CountrySeed[] = [
  { country_code: 'US', locale_code: 'en_US', display_name: 'United States' },
  { country_code: 'GB', locale_code: 'en_GB', display_name: 'United Kingdom' },
  { country_code: 'CA', locale_code: 'en_CA', display_name: 'Canada' },
  { country_code: 'AU', locale_code: 'en_AU', display_name: 'Australia' },
  { country_code: 'DE', locale_code: 'de_DE', display_name: 'Germany' },
  { country_code: 'FR', locale_code: 'fr_FR', display_name: 'France' },
  { country_code: 'JP', locale_code: 'ja_JP', display_name: 'Japan' },
  { country_code: 'CN', locale_code: 'zh_CN', display_name: 'China mainland' },
  { country_code: 'SG', locale_code: 'en_SG', display_name: 'Singapore' },
];
