import { STORE_SEED_COUNTRIES } from './stores.ts';
import type { CountrySeed } from './types.ts';

// locale_code is the locale Apple's store directory files the country's stores under (not
// the language a visitor reads), because stores join countries on it. The list is data: the
// countries of store-seed.json, each with its source, in display order (the earlier nine
// first, then by name).

/** Countries with stores, in display order. */
export const COUNTRY_SEEDS: readonly CountrySeed[] = STORE_SEED_COUNTRIES;
