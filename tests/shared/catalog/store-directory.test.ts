import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUNDLED_STORE_SEED,
  STORE_SEEDS,
  describeCountryFromLocale,
  localeToCountryCode,
  parseStoreDirectory,
} from '#shared/catalog/index.ts';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'store-list-small.json');
// The seed's key for Apple's 2022 directory capture (store-seed.json, `sources`).
const DIRECTORY_SOURCE = 'apple-store-list-2022';
const REFERENCE = path.resolve(process.cwd(), '../shared/reference/apple/store-list.json');

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8')) as unknown;
}

describe('parseStoreDirectory', () => {
  const { stores, skipped } = parseStoreDirectory(readJson(FIXTURE));

  it('reads stores from locales with and without states', () => {
    expect(stores.map((store) => store.store_id)).toEqual([
      'R072',
      'R003',
      'R549',
      'R092',
      'R669',
      'R736',
    ]);
  });

  it('maps a store onto the Store entity, without coordinates', () => {
    expect(stores[0]).toEqual({
      store_id: 'R072',
      store_name: 'University Village',
      country_locale: 'en_US',
      city: 'Seattle',
      state_code: 'WA',
      state_name: 'Washington',
      address1: '2651 NE 49th St',
      address2: null,
      postal_code: '98105',
      telephone: '(206) 892-0433',
      store_slug: 'universityvillage',
      latitude: null,
      longitude: null,
    });
  });

  it('turns missing or empty state fields into null', () => {
    const orchard = stores.find((store) => store.store_id === 'R669');
    expect(orchard).toMatchObject({ country_locale: 'en_SG', state_code: null, state_name: null });
    const regent = stores.find((store) => store.store_id === 'R092');
    expect(regent).toMatchObject({ state_code: null, state_name: 'Central London' });
    const jewel = stores.find((store) => store.store_id === 'R736');
    expect(jewel?.address2).toBe('#02-234');
  });

  it('trims the padding Apple leaves in addresses', () => {
    expect(stores.find((store) => store.store_id === 'R549')?.address1).toBe(
      '150 Quaker Bridge Mall',
    );
  });

  it('skips a broken store with its id and a reason, keeping the rest', () => {
    expect(skipped).toHaveLength(1);
    expect(skipped[0].id).toBe('R999');
    expect(skipped[0].reason).toMatch(/en_US: address/);
  });

  it('skips a store listed twice and a locale without its store list', () => {
    const result = parseStoreDirectory({
      storeListData: [
        {
          locale: 'en_US',
          hasStates: false,
          store: [
            { id: 'R072', name: 'A', slug: 'a', address: { address1: '1 A St', city: 'X' } },
            { id: 'R072', name: 'B', slug: 'b', address: { address1: '2 B St', city: 'Y' } },
          ],
        },
        { locale: 'en_CA', hasStates: true },
        { locale: 'english', hasStates: false, store: [] },
      ],
    });
    expect(result.stores.map((store) => store.store_name)).toEqual(['A']);
    expect(result.skipped.map((entry) => entry.reason)).toEqual([
      'en_US: store listed twice',
      'en_CA: hasStates is true but no state list',
      expect.stringMatching(/^storeListData\[2\]: locale: expected a locale like en_US/),
    ]);
  });

  it('rejects a payload that is not a store directory with a clear error', () => {
    for (const payload of [null, 'stores', {}, { storeListData: 'none' }, []]) {
      expect(() => parseStoreDirectory(payload)).toThrow(/^Not an Apple store directory: /);
    }
  });

  it.skipIf(!existsSync(REFERENCE))(
    'reads the whole reference capture without skipping anything',
    () => {
      const result = parseStoreDirectory(readJson(REFERENCE));
      // The reference README says 527, but the capture holds 521 store objects (one "id" each).
      expect(result.stores).toHaveLength(521);
      expect(new Set(result.stores.map((store) => store.country_locale)).size).toBe(25);
      expect(result.skipped).toEqual([]);
    },
  );

  it.skipIf(!existsSync(REFERENCE))('agrees with Apple’s directory on every seeded store', () => {
    const directory = new Map(
      parseStoreDirectory(readJson(REFERENCE)).stores.map((store) => [store.store_id, store]),
    );
    // Stores known only from an answer (UAE R785) are not in the 2022 directory.
    const listed = STORE_SEEDS.filter((seed) =>
      BUNDLED_STORE_SEED.stores.some(
        (entry) => entry.store_id === seed.store_id && entry.source.includes(DIRECTORY_SOURCE),
      ),
    );
    expect(listed).toHaveLength(521);
    const withoutZones = listed.map(({ time_zone: _timeZone, ...seed }) => seed);
    for (const seed of withoutZones) {
      expect(directory.get(seed.store_id)).toEqual({ ...seed, latitude: null, longitude: null });
    }
  });
});

describe('localeToCountryCode', () => {
  it('reads the country from a store-directory locale', () => {
    expect(localeToCountryCode('en_US')).toBe('US');
    expect(localeToCountryCode('en_GB')).toBe('GB');
    expect(localeToCountryCode('zh_CN')).toBe('CN');
    expect(localeToCountryCode('fr_CA')).toBe('CA');
    expect(localeToCountryCode('de-AT')).toBe('AT');
  });

  it('returns undefined when the locale names no country', () => {
    for (const locale of ['', 'en', 'es_419', 'not a locale']) {
      expect(localeToCountryCode(locale), locale).toBeUndefined();
    }
  });
});

describe('describeCountryFromLocale', () => {
  it('returns the seeded country for a seeded locale', () => {
    expect(describeCountryFromLocale('zh_CN')).toEqual({
      country_code: 'CN',
      locale_code: 'zh_CN',
      display_name: 'China mainland',
    });
  });

  it('names a country the seed lacks so an import can create it', () => {
    expect(describeCountryFromLocale('en_IN')).toEqual({
      country_code: 'IN',
      locale_code: 'en_IN',
      display_name: 'India',
    });
  });

  it('returns undefined for a locale without a country', () => {
    expect(describeCountryFromLocale('en')).toBeUndefined();
  });
});
