import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_STORE_SEED, COUNTRY_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { parseStoreSeedFile, type StoreSeedFile } from '#shared/catalog/store-seed-file.ts';
import { isSupportedCountry, listCountryPaths } from '#shared/upstream/index.ts';
import seedJson from '../../../shared/catalog/store-seed.json' with { type: 'json' };

const CAPTURES = path.resolve(process.cwd(), '../shared/reference/apple/captures');

/** A deep copy of the shipped file, changed by `edit`, then checked. */
function checkEdited(edit: (file: StoreSeedFile) => void): string[] {
  const copy = structuredClone(seedJson) as unknown as StoreSeedFile;
  edit(copy);
  const result = parseStoreSeedFile(copy);
  return result.ok ? [] : result.errors;
}

type CapturedStore = {
  storeNumber: string;
  retailStore?: { latitude: number; longitude: number; timezone: string };
};

/** Stores of every captured answer that carries `retailStore` (coordinates and zone). */
function readCapturedStores(): CapturedStore[] {
  return readdirSync(CAPTURES)
    .filter((file) => file.endsWith('.json'))
    .flatMap((file) => {
      const json = JSON.parse(readFileSync(path.join(CAPTURES, file), 'utf8')) as {
        body?: { stores?: CapturedStore[] };
      };
      return (json.body?.stores ?? []).filter((store) => store.retailStore !== undefined);
    });
}

describe('the shipped store seed', () => {
  it('lists at least 500 stores in at least 25 countries', () => {
    expect(STORE_SEEDS.length).toBeGreaterThanOrEqual(500);
    expect(COUNTRY_SEEDS.length).toBeGreaterThanOrEqual(25);
    const countriesWithStores = new Set(STORE_SEEDS.map((store) => store.country_locale));
    expect(countriesWithStores.size).toBeGreaterThanOrEqual(25);
  });

  it('names a described source for every store, country, coordinate and time zone', () => {
    const isDescribed = (key: string): boolean =>
      Object.hasOwn(BUNDLED_STORE_SEED.sources, key) &&
      BUNDLED_STORE_SEED.sources[key].trim().length > 0;
    for (const country of BUNDLED_STORE_SEED.countries) {
      expect(country.source.length, country.country_code).toBeGreaterThan(0);
      expect(country.source.every(isDescribed), country.country_code).toBe(true);
    }
    for (const store of BUNDLED_STORE_SEED.stores) {
      const keys = [...store.source, ...store.coordinate_source, ...store.time_zone_source];
      expect(store.source.length, store.store_id).toBeGreaterThan(0);
      expect(keys.every(isDescribed), store.store_id).toBe(true);
    }
  });

  it('gives every store coordinates on the globe and a time zone Intl knows', () => {
    for (const store of STORE_SEEDS) {
      expect(Math.abs(store.latitude), store.store_id).toBeLessThanOrEqual(90);
      expect(Math.abs(store.longitude), store.store_id).toBeLessThanOrEqual(180);
      expect(
        () => new Intl.DateTimeFormat('en', { timeZone: store.time_zone ?? '' }),
      ).not.toThrow();
    }
  });

  it('files every store under a country Shelfwatch can ask Apple about', () => {
    const locales = new Set(COUNTRY_SEEDS.map((country) => country.locale_code));
    for (const store of STORE_SEEDS)
      expect(locales, store.store_id).toContain(store.country_locale);
    for (const country of COUNTRY_SEEDS) {
      expect(isSupportedCountry(country.country_code), country.country_code).toBe(true);
    }
  });

  it('covers the countries the issue names, each with its own storefront path', () => {
    const codes = COUNTRY_SEEDS.map((country) => country.country_code);
    for (const code of [
      'HK',
      'TW',
      'KR',
      'IT',
      'ES',
      'NL',
      'CH',
      'SE',
      'TH',
      'AE',
      'MY',
      'MX',
      'BR',
      'TR',
    ]) {
      expect(codes).toContain(code);
    }
    expect(listCountryPaths('HK')).toEqual(['hk/en', 'hk', 'hk-zh']);
    expect(listCountryPaths('TH')).toEqual(['th']);
  });

  it('keeps the stores public sources show beyond the 2022 directory', () => {
    const alJimi = BUNDLED_STORE_SEED.stores.find((store) => store.store_id === 'R785');
    expect(alJimi).toMatchObject({
      store_name: 'Al Jimi Mall',
      city: 'Al Ain',
      country_locale: 'en_AE',
      coordinate_precision: 'store',
      time_zone: 'Asia/Dubai',
    });
    expect(alJimi?.source).not.toContain('apple-store-list-2022');
    const trx = BUNDLED_STORE_SEED.stores.find((store) => store.store_id === 'R742');
    expect(trx).toMatchObject({ country_locale: 'en_MY', time_zone: 'Asia/Kuala_Lumpur' });
    expect(trx?.source).toEqual(['apw-stores-json-2026']);
    const causewayBay = STORE_SEEDS.find((store) => store.store_id === 'R409');
    expect(causewayBay).toMatchObject({ store_name: 'Causeway Bay', country_locale: 'en_HK' });
  });

  it.skipIf(!existsSync(CAPTURES))(
    'carries every captured store with the answer’s coordinates',
    () => {
      const captured = readCapturedStores();
      expect(captured.length).toBeGreaterThan(0);
      for (const answer of captured) {
        const store = STORE_SEEDS.find((seed) => seed.store_id === answer.storeNumber);
        expect(store, answer.storeNumber).toBeDefined();
        expect(store?.latitude).toBeCloseTo(answer.retailStore?.latitude ?? NaN, 5);
        expect(store?.longitude).toBeCloseTo(answer.retailStore?.longitude ?? NaN, 5);
        expect(store?.time_zone).toBe(answer.retailStore?.timezone);
      }
    },
  );
});

describe('parseStoreSeedFile', () => {
  it('accepts the shipped file', () => {
    expect(checkEdited(() => undefined)).toEqual([]);
  });

  it('refuses a store without a source, naming the store', () => {
    const errors = checkEdited((file) => {
      file.stores[0].source = [];
    });
    expect(errors.join('\n')).toMatch(/store R\d+ > source: must name at least one source/);
  });

  it('refuses a country without a source', () => {
    const errors = checkEdited((file) => {
      file.countries[0].source = [];
    });
    expect(errors.join('\n')).toMatch(/country US > source/);
  });

  it('refuses a store without coordinates or with coordinates off the globe', () => {
    const missing = checkEdited((file) => {
      delete (file.stores[1] as Partial<StoreSeedFile['stores'][number]>).latitude;
    });
    expect(missing.join('\n')).toMatch(/> latitude:/);
    const offGlobe = checkEdited((file) => {
      file.stores[2].longitude = 181;
    });
    expect(offGlobe.join('\n')).toMatch(/> longitude:/);
  });

  it('refuses a store listed twice and a source nobody described', () => {
    const errors = checkEdited((file) => {
      file.stores.push({ ...file.stores[0] });
      file.stores[3].coordinate_source = ['nowhere'];
    });
    expect(errors).toContain(`store ${seedJson.stores[0].store_id}: listed twice`);
    expect(errors).toContain(`store ${seedJson.stores[3].store_id}: unknown source "nowhere"`);
  });

  it('refuses a store whose locale no country has', () => {
    const errors = checkEdited((file) => {
      file.stores[4].country_locale = 'en_IN';
    });
    expect(errors).toContain(`store ${seedJson.stores[4].store_id}: no country has locale en_IN`);
  });
});
