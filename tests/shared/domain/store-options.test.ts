import { describe, expect, it } from 'vitest';
import type { Store } from '#shared/api/catalog.ts';
import {
  formatSearchLocation,
  formatStoreOptionLabel,
  matchesStoreFilter,
  orderStoresForLocale,
  readLocaleRegion,
} from '#shared/domain/store-options.ts';

/** A store with defaults for the fields these rules ignore. */
function makeStore(
  fields: Pick<Store, 'store_id' | 'store_name' | 'city' | 'country_locale'> & Partial<Store>,
): Store {
  return {
    state_code: null,
    state_name: null,
    address1: '1 Main St',
    address2: null,
    postal_code: null,
    telephone: null,
    store_slug: null,
    ...fields,
  };
}

const stores: Store[] = [
  makeStore({
    store_id: 'R358',
    store_name: 'Rosenthaler Straße',
    city: 'Berlin',
    country_locale: 'de_DE',
  }),
  makeStore({
    store_id: 'R045',
    store_name: 'Marienplatz',
    city: 'München',
    country_locale: 'de_DE',
  }),
  makeStore({
    store_id: 'R092',
    store_name: 'Regent Street',
    city: 'London',
    country_locale: 'en_GB',
  }),
  makeStore({
    store_id: 'R075',
    store_name: 'Union Square',
    city: 'San Francisco',
    state_code: 'CA',
    country_locale: 'en_US',
  }),
  makeStore({
    store_id: 'R095',
    store_name: 'Fifth Avenue',
    city: 'New York',
    state_code: 'NY',
    country_locale: 'en_US',
  }),
  makeStore({ store_id: 'R120', store_name: 'Ginza', city: 'Tokyo', country_locale: 'ja_JP' }),
];

const unionSquare = makeStore({
  store_id: 'R075',
  store_name: 'Union Square',
  city: 'San Francisco',
  state_code: 'CA',
  state_name: 'California',
  country_locale: 'en_US',
});
const regentStreet = makeStore({
  store_id: 'R092',
  store_name: 'Regent Street',
  city: 'London',
  country_locale: 'en_GB',
});

/** The dropdown labels in the order a visitor with this browser language sees them. */
function labelsFor(languageTag: string): string[] {
  return orderStoresForLocale(stores, languageTag).map(formatStoreOptionLabel);
}

describe('browser locale region', () => {
  it('reads the region of a tag with one, hyphen or underscore', () => {
    expect(readLocaleRegion('en-US')).toBe('US');
    expect(readLocaleRegion('en-GB')).toBe('GB');
    expect(readLocaleRegion('de_DE')).toBe('DE');
  });

  it("takes a bare language's likely region", () => {
    expect(readLocaleRegion('de')).toBe('DE');
    expect(readLocaleRegion('ja')).toBe('JP');
  });

  it('has no region for area codes or unreadable tags', () => {
    expect(readLocaleRegion('es-419')).toBeUndefined();
    expect(readLocaleRegion('not a locale!')).toBeUndefined();
    expect(readLocaleRegion('')).toBeUndefined();
  });
});

describe('store order', () => {
  it("puts a US visitor's stores first, then every other store, each alphabetical", () => {
    expect(labelsFor('en-US')).toEqual([
      'Fifth Avenue | New York, NY',
      'Union Square | San Francisco, CA',
      'Ginza | Tokyo',
      'Marienplatz | München',
      'Regent Street | London',
      'Rosenthaler Straße | Berlin',
    ]);
  });

  it("puts a German visitor's stores first", () => {
    expect(labelsFor('de-DE').slice(0, 3)).toEqual([
      'Marienplatz | München',
      'Rosenthaler Straße | Berlin',
      'Fifth Avenue | New York, NY',
    ]);
    expect(labelsFor('de')[0]).toBe('Marienplatz | München');
  });

  it('is plain alphabetical when the browser names no country with stores', () => {
    expect(labelsFor('es-419')).toEqual([...labelsFor('fr-FR')]);
    expect(labelsFor('fr-FR')[0]).toBe('Fifth Avenue | New York, NY');
    expect(labelsFor('fr-FR').at(-1)).toBe('Union Square | San Francisco, CA');
  });

  it('keeps the input untouched and every store', () => {
    const before = stores.map((store) => store.store_id);
    const ordered = orderStoresForLocale(stores, 'ja-JP');
    expect(ordered[0]?.store_name).toBe('Ginza');
    expect(new Set(ordered.map((store) => store.store_id))).toEqual(new Set(before));
    expect(stores.map((store) => store.store_id)).toEqual(before);
  });
});

describe('store option labels', () => {
  it('reads "name | city, state code"', () => {
    expect(formatStoreOptionLabel(unionSquare)).toBe('Union Square | San Francisco, CA');
  });

  it('omits a missing or empty state code', () => {
    expect(formatStoreOptionLabel(regentStreet)).toBe('Regent Street | London');
    expect(formatStoreOptionLabel({ ...regentStreet, state_code: '' })).toBe(
      'Regent Street | London',
    );
  });
});

describe('store filter', () => {
  it('matches the label ignoring case', () => {
    expect(matchesStoreFilter(unionSquare, 'union')).toBe(true);
    expect(matchesStoreFilter(unionSquare, 'SAN FRAN')).toBe(true);
    expect(matchesStoreFilter(unionSquare, 'sco, ca')).toBe(true);
  });

  it('matches the full state name ignoring case', () => {
    expect(matchesStoreFilter(unionSquare, 'californ')).toBe(true);
    expect(matchesStoreFilter(unionSquare, 'CALIFORNIA')).toBe(true);
  });

  it('matches the city ignoring case', () => {
    expect(matchesStoreFilter(regentStreet, 'LONDON')).toBe(true);
    expect(matchesStoreFilter(unionSquare, 'san francisco')).toBe(true);
  });

  it('matches the start of the postal code, ignoring spaces and case', () => {
    const westfield = { ...regentStreet, postal_code: 'W12 7GF' };
    const zip = { ...unionSquare, postal_code: '94108' };
    expect(matchesStoreFilter(zip, '94108')).toBe(true);
    expect(matchesStoreFilter(zip, '941')).toBe(true);
    expect(matchesStoreFilter(zip, '108')).toBe(false);
    expect(matchesStoreFilter(westfield, 'w12 7gf')).toBe(true);
    expect(matchesStoreFilter(westfield, 'W127')).toBe(true);
    expect(matchesStoreFilter(unionSquare, '941')).toBe(false);
  });

  it('rejects text found nowhere, and accepts empty input', () => {
    expect(matchesStoreFilter(unionSquare, 'texas')).toBe(false);
    expect(matchesStoreFilter(regentStreet, 'california')).toBe(false);
    expect(matchesStoreFilter(unionSquare, '  ')).toBe(true);
  });
});

describe('search header location', () => {
  it('reads "near {store name} | {city}, {state}"', () => {
    expect(
      formatSearchLocation({
        store_name: 'Union Square',
        store_city: 'San Francisco',
        store_state: 'CA',
      }),
    ).toBe('near Union Square | San Francisco, CA');
    expect(
      formatSearchLocation({
        store_name: 'Regent Street',
        store_city: 'London',
        store_state: null,
      }),
    ).toBe('near Regent Street | London');
  });
});
