import { ASIA_PACIFIC_STORES } from './stores-asia-pacific.ts';
import { EUROPE_STORES } from './stores-europe.ts';
import { NORTH_AMERICA_EAST_STORES } from './stores-north-america-east.ts';
import { NORTH_AMERICA_WEST_STORES } from './stores-north-america-west.ts';
import type { StoreSeed } from './types.ts';

/** Every store of the curated seed: dense clusters so nearby-store lists have real neighbours. */
export const STORE_SEEDS: readonly StoreSeed[] = [
  ...NORTH_AMERICA_EAST_STORES,
  ...NORTH_AMERICA_WEST_STORES,
  ...EUROPE_STORES,
  ...ASIA_PACIFIC_STORES,
];
