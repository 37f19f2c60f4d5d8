import { describe, expect, it } from 'vitest';
import { STORE_SEEDS, type DirectoryStore } from '#shared/catalog/index.ts';
import { placeStores } from './geo.ts';

function directoryStore(
  storeId: string,
  locale: string,
  city: string,
  stateCode: string | null,
): DirectoryStore {
  return {
    store_id: storeId,
    store_name: storeId,
    country_locale: locale,
    city,
    state_code: stateCode,
    state_name: null,
    address1: '1 Main Street',
    address2: null,
    postal_code: null,
    telephone: null,
    store_slug: storeId.toLowerCase(),
    latitude: null,
    longitude: null,
  };
}

describe('placeStores', () => {
  const seeded = STORE_SEEDS.find((store) => store.store_id === 'R095');

  const placement = placeStores(
    [
      directoryStore('R095', 'en_US', 'New York', 'NY'),
      directoryStore('R901', 'en_US', 'Houston', 'TX'),
      directoryStore('R902', 'en_US', 'Houston', 'TX'),
      directoryStore('R903', 'en_US', 'Nowhere', 'NY'),
      // A locale no seeded store has (every real one has some since the seed covers the directory).
      directoryStore('R904', 'xx_XX', 'Nowhere', null),
    ],
    STORE_SEEDS,
  );
  const byId = new Map(placement.stores.map((store) => [store.store_id, store]));

  it('keeps seeded coordinates and puts a city of the table near its centre', () => {
    expect(byId.get('R095')?.latitude).toBe(seeded?.latitude);
    const houston = byId.get('R901');
    expect(Math.abs((houston?.latitude ?? 0) - 29.76)).toBeLessThan(0.03);
    expect(Math.abs((houston?.longitude ?? 0) + 95.37)).toBeLessThan(0.03);
    expect(byId.get('R902')?.latitude).not.toBe(houston?.latitude);
  });

  it('falls back to the seeded stores of the state, and leaves out what it cannot place', () => {
    expect(placement.fallback).toEqual(['R903']);
    expect(Math.abs((byId.get('R903')?.latitude ?? 0) - 40.7)).toBeLessThan(1);
    expect(placement.unplaced).toEqual(['R904']);
    expect(placement).toMatchObject({ seeded: 1, byCity: 2 });
  });
});
