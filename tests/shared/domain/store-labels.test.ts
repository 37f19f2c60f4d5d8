import { describe, expect, it } from 'vitest';
import type { Country, Store } from '#shared/api/catalog.ts';
import {
  buildExampleStoreCards,
  formatProductTypeCount,
  formatStoreCardLocation,
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
