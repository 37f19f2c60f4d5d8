import storeSeedJson from './store-seed.json' with { type: 'json' };
import {
  STORE_DIRECTORY_SOURCE_KEY,
  parseStoreSeedFile,
  type StoreSeedFile,
} from './store-seed-file.ts';
import type { CountrySeed, StoreSeed } from './types.ts';

// Every Apple Store ships as data (store-seed.json, format in store-seed-file.ts, rebuilt by
// bin/build-store-seed.ts): a new store is an edit to that file or a directory import, not code.

function loadStoreSeedFile(): StoreSeedFile {
  const result = parseStoreSeedFile(storeSeedJson);
  if (!result.ok) throw new Error(`store-seed.json is invalid:\n${result.errors.join('\n')}`);
  return result.file;
}

/** The store seed file bundled with this release, validated, with every store's sources. */
export const BUNDLED_STORE_SEED: StoreSeedFile = loadStoreSeedFile();

/** Every store of the bundled seed, as the database and the simulator take them. */
export const STORE_SEEDS: readonly StoreSeed[] = BUNDLED_STORE_SEED.stores.map(
  ({
    source: _source,
    coordinate_precision: _precision,
    coordinate_source: _coordinateSource,
    time_zone_source: _timeZoneSource,
    ...store
  }) => store,
);

/**
 * Seed stores that Apple's directory did not list (known from pickup answers or checkers'
 * lists): a directory read that lacks them must not close them, as with stores learned live.
 */
export const ANSWER_ONLY_STORE_IDS: ReadonlySet<string> = new Set(
  BUNDLED_STORE_SEED.stores
    .filter((store) => !store.source.includes(STORE_DIRECTORY_SOURCE_KEY))
    .map((store) => store.store_id),
);

/** Every country with stores in the bundled seed, in display order. */
export const STORE_SEED_COUNTRIES: readonly CountrySeed[] = BUNDLED_STORE_SEED.countries.map(
  ({ source: _source, ...country }) => country,
);
