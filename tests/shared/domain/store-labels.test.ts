import { describe, expect, it } from 'vitest';
import type { Country, Store } from '#shared/api/catalog.ts';
import {
  buildExampleStoreCards,
  formatProductTypeCount,
  formatSearchLocation,
  formatStoreCardLocation,
  formatStoreOptionLabel,
  matchesStoreFilter,
} from '#shared/domain/store-labels.ts';

/** A store with defaults for the fields these rules ignore. */
function makeStore(
  fields: Partial<Store> & Pick<Store, 'store_id' | 'store_name' | 'city'>,
): Store {
  return {
    country_locale: 'en_US',
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

const unionSquare = makeStore({
  store_id: 'R075',
  store_name: 'Union Square',
  city: 'San Francisco',
  state_code: 'CA',
  state_name: 'California',
});
const regentStreet = makeStore({
  store_id: 'R092',
  store_name: 'Regent Street',
  city: 'London',
  country_locale: 'en_GB',
});
const countries: Country[] = [
  { country_code: 'US', locale_code: 'en_US', display_name: 'United States' },
  { country_code: 'GB', locale_code: 'en_GB', display_name: 'United Kingdom' },
];

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

  it('rejects text found nowhere, and accepts empty input', () => {
    expect(matchesStoreFilter(unionSquare, 'texas')).toBe(false);
    expect(matchesStoreFilter(regentStreet, 'california')).toBe(false);
    expect(matchesStoreFilter(unionSquare, '  ')).toBe(true);
  });
});

describe('example inventory cards', () => {
  it('shows "city, state_code", or "city, country_code" without a state', () => {
    expect(formatStoreCardLocation(unionSquare, countries[0])).toBe('San Francisco, CA');
    expect(formatStoreCardLocation(regentStreet, countries[1])).toBe('London, GB');
  });

  it('pluralizes product types', () => {
    expect(formatProductTypeCount(1)).toBe('1 type');
    expect(formatProductTypeCount(0)).toBe('0 types');
    expect(formatProductTypeCount(4)).toBe('4 types');
  });

  it('builds a card only when the store and its country are known', () => {
    const orphan = makeStore({
      store_id: 'R999',
      store_name: 'Nowhere',
      city: 'Atlantis',
      country_locale: 'xx_XX',
    });
    const cards = buildExampleStoreCards(
      [
        { store_id: 'R075', product_count: 1 },
        { store_id: 'R092', product_count: 3 },
        { store_id: 'R999', product_count: 2 },
        { store_id: 'R000', product_count: 5 },
      ],
      [unionSquare, regentStreet, orphan],
      countries,
    );
    expect(cards).toEqual([
      {
        storeId: 'R075',
        storeName: 'Union Square',
        location: 'San Francisco, CA',
        typesText: '1 type',
      },
      { storeId: 'R092', storeName: 'Regent Street', location: 'London, GB', typesText: '3 types' },
    ]);
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
