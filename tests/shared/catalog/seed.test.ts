import { describe, expect, it } from 'vitest';
import {
  COUNTRY_SEEDS,
  PRODUCT_FAMILIES,
  PRODUCT_MODEL_SEEDS,
  PRODUCT_TYPE_SEEDS,
  STORE_SEEDS,
  getProductFamily,
  isModelSold,
  listCurrentProductTypes,
  type StoreSeed,
} from '#shared/catalog/index.ts';

const IPHONE16_FAMILY = ['iphone16', 'iphone16plus', 'iphone16pro', 'iphone16promax'];

// Canada and Japan share iPhone 16 base part numbers, and none were found for the 16 Pro.
const KNOWN_GAPS = new Set(['CA:iphone16pro', 'JP:iphone16pro']);

// Rough boxes around each country: catches swapped or sign-flipped coordinates.
const COUNTRY_BOUNDS: Record<
  string,
  [minLat: number, maxLat: number, minLon: number, maxLon: number]
> = {
  // Hawaii and Alaska included.
  en_US: [18.9, 61.5, -158.1, -66],
  en_GB: [49.8, 59, -8.7, 1.8],
  en_CA: [41.6, 70, -141, -52],
  en_AU: [-44, -10, 112, 154],
  de_DE: [47.2, 55.1, 5.8, 15.1],
  fr_FR: [41.3, 51.1, -5.2, 9.6],
  ja_JP: [24, 45.6, 122.9, 146],
  zh_CN: [18, 53.6, 73.5, 135],
  en_SG: [1.15, 1.48, 103.6, 104.1],
  de_AT: [46.4, 49.1, 9.5, 17.2],
  fr_BE: [49.5, 51.5, 2.5, 6.4],
  pt_BR: [-33.8, 5.3, -74, -34.8],
  en_HK: [22.15, 22.57, 113.8, 114.45],
  it_IT: [36.6, 47.1, 6.6, 18.6],
  en_MO: [22.1, 22.22, 113.52, 113.6],
  es_MX: [14.5, 32.7, -118.4, -86.7],
  nl_NL: [50.7, 53.6, 3.3, 7.3],
  ko_KR: [33.1, 38.7, 124.6, 131],
  es_ES: [27.6, 43.8, -18.2, 4.4],
  sv_SE: [55.3, 69.1, 11, 24.2],
  fr_CH: [45.8, 47.9, 5.9, 10.5],
  zh_TW: [21.9, 25.4, 119.3, 122.1],
  th_TH: [5.6, 20.5, 97.3, 105.7],
  tr_TR: [35.8, 42.2, 25.6, 44.9],
  en_AE: [22.6, 26.1, 51.5, 56.4],
  en_MY: [0.8, 7.5, 99.6, 119.3],
};

function distanceKm(a: StoreSeed, b: StoreSeed): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

function storesNear(storeId: string, radiusKm: number): StoreSeed[] {
  const centre = STORE_SEEDS.find((store) => store.store_id === storeId);
  if (centre === undefined) throw new Error(`no store ${storeId}`);
  return STORE_SEEDS.filter((store) => distanceKm(centre, store) <= radiusKm);
}

function duplicatesOf(values: readonly (string | number)[]): (string | number)[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

describe('seed countries', () => {
  it('has at least eight countries with unique codes and locales', () => {
    expect(COUNTRY_SEEDS.length).toBeGreaterThanOrEqual(8);
    expect(duplicatesOf(COUNTRY_SEEDS.map((country) => country.country_code))).toEqual([]);
    expect(duplicatesOf(COUNTRY_SEEDS.map((country) => country.locale_code))).toEqual([]);
  });

  it('writes locales the way the store directory does, ending in the country code', () => {
    for (const country of COUNTRY_SEEDS) {
      expect(country.locale_code).toMatch(new RegExp(`^[a-z]{2}_${country.country_code}$`));
      expect(country.display_name).not.toBe('');
    }
  });
});

describe('seed stores', () => {
  it('has at least 48 stores across at least six countries', () => {
    expect(STORE_SEEDS.length).toBeGreaterThanOrEqual(48);
    expect(new Set(STORE_SEEDS.map((store) => store.country_locale)).size).toBeGreaterThanOrEqual(
      6,
    );
  });

  it('keeps store numbers and slugs unique', () => {
    expect(duplicatesOf(STORE_SEEDS.map((store) => store.store_id))).toEqual([]);
    // Slugs name a store's page under its country ("/retail/unionsquare" in the US and the UK).
    for (const { locale_code } of COUNTRY_SEEDS) {
      const slugs = STORE_SEEDS.filter((store) => store.country_locale === locale_code).map(
        (store) => store.store_slug,
      );
      expect(duplicatesOf(slugs), locale_code).toEqual([]);
    }
    for (const store of STORE_SEEDS) expect(store.store_id).toMatch(/^R\d{3,4}$/);
  });

  it('files every store under a seeded country', () => {
    const locales = new Set(COUNTRY_SEEDS.map((country) => country.locale_code));
    for (const store of STORE_SEEDS) expect(locales).toContain(store.country_locale);
  });

  it('gives most stores to the US, each with a state code and name', () => {
    const us = STORE_SEEDS.filter((store) => store.country_locale === 'en_US');
    expect(us.length * 2).toBeGreaterThan(STORE_SEEDS.length);
    for (const store of us) {
      expect(store.state_code).toMatch(/^[A-Z]{2}$/);
      expect(store.state_name).toBeTruthy();
    }
  });

  it('uses null, never empty strings, for missing address parts', () => {
    for (const store of STORE_SEEDS) {
      for (const value of [store.state_code, store.state_name, store.address2, store.postal_code]) {
        expect(value).not.toBe('');
      }
    }
  });

  it('places every store inside its own country', () => {
    for (const store of STORE_SEEDS) {
      const [minLat, maxLat, minLon, maxLon] = COUNTRY_BOUNDS[store.country_locale];
      expect(store.latitude, store.store_id).toBeGreaterThanOrEqual(minLat);
      expect(store.latitude, store.store_id).toBeLessThanOrEqual(maxLat);
      expect(store.longitude, store.store_id).toBeGreaterThanOrEqual(minLon);
      expect(store.longitude, store.store_id).toBeLessThanOrEqual(maxLon);
    }
  });

  it('clusters stores so nearby-store lists have real neighbours', () => {
    expect(storesNear('R095', 50).length).toBeGreaterThanOrEqual(8); // Fifth Avenue, NY/NJ
    expect(storesNear('R075', 70).length).toBeGreaterThanOrEqual(8); // Union Square, Bay Area
    expect(storesNear('R050', 40).length).toBeGreaterThanOrEqual(6); // The Grove, Los Angeles
    expect(storesNear('R035', 40).length).toBeGreaterThanOrEqual(4); // Michigan Avenue, Chicago
    expect(storesNear('R072', 50).length).toBeGreaterThanOrEqual(4); // University Village, Seattle
    expect(storesNear('R092', 20).length).toBeGreaterThanOrEqual(5); // Regent Street, London
  });
});

describe('seed product types', () => {
  it('has unique codes and picker positions', () => {
    expect(duplicatesOf(PRODUCT_TYPE_SEEDS.map((type) => type.product_id))).toEqual([]);
    expect(duplicatesOf(PRODUCT_TYPE_SEEDS.map((type) => type.sort_order))).toEqual([]);
    for (const type of PRODUCT_TYPE_SEEDS) expect(type.product_id).toMatch(/^[a-z0-9]+$/);
  });

  it('gives every type the family its code maps to', () => {
    for (const type of PRODUCT_TYPE_SEEDS) {
      expect(PRODUCT_FAMILIES).toContain(type.family);
      expect(getProductFamily(type.product_id), type.product_id).toBe(type.family);
    }
  });

  it('covers every icon family', () => {
    const used = new Set(PRODUCT_TYPE_SEEDS.map((type) => type.family));
    for (const family of PRODUCT_FAMILIES) expect(used, family).toContain(family);
  });
});

describe('seed models', () => {
  const typeIds = new Set(PRODUCT_TYPE_SEEDS.map((type) => type.product_id));
  const countryCodes = new Set(COUNTRY_SEEDS.map((country) => country.country_code));

  it('belongs to known product types and countries', () => {
    for (const model of PRODUCT_MODEL_SEEDS) {
      expect(typeIds).toContain(model.product_id);
      expect(countryCodes).toContain(model.country_code);
    }
  });

  it('has models for every product type', () => {
    for (const type of PRODUCT_TYPE_SEEDS) {
      const models = PRODUCT_MODEL_SEEDS.filter((model) => model.product_id === type.product_id);
      expect(models.length, type.product_id).toBeGreaterThan(0);
    }
  });

  it('gives every part its source', () => {
    for (const model of PRODUCT_MODEL_SEEDS) {
      expect(model.source?.trim().length ?? 0, model.part_number).toBeGreaterThan(0);
    }
  });

  it('keeps part numbers unique within each country and shaped like Apple part numbers', () => {
    for (const code of countryCodes) {
      const parts = PRODUCT_MODEL_SEEDS.filter((model) => model.country_code === code).map(
        (model) => model.part_number,
      );
      expect(duplicatesOf(parts), code).toEqual([]);
    }
    for (const model of PRODUCT_MODEL_SEEDS) {
      expect(model.part_number).toMatch(/^M[A-Z0-9]{4}[A-Z]{1,2}\/A$/);
    }
  });

  it('names each iPhone model after its product type, as Apple does', () => {
    const names = new Map(PRODUCT_TYPE_SEEDS.map((type) => [type.product_id, type.product_name]));
    for (const model of PRODUCT_MODEL_SEEDS.filter((m) => m.product_id.startsWith('iphone'))) {
      expect(model.display_name.startsWith(`${names.get(model.product_id)} `)).toBe(true);
    }
  });

  it('carries the whole US iPhone 16 family, every capacity in every colour', () => {
    const expected: Record<string, { capacities: string[]; colors: string[] }> = {
      iphone16: {
        capacities: ['128GB', '256GB', '512GB'],
        colors: ['Black', 'White', 'Pink', 'Teal', 'Ultramarine'],
      },
      iphone16plus: {
        capacities: ['128GB', '256GB', '512GB'],
        colors: ['Black', 'White', 'Pink', 'Teal', 'Ultramarine'],
      },
      iphone16pro: {
        capacities: ['128GB', '256GB', '512GB', '1TB'],
        colors: ['Black Titanium', 'White Titanium', 'Natural Titanium', 'Desert Titanium'],
      },
      iphone16promax: {
        capacities: ['256GB', '512GB', '1TB'],
        colors: ['Black Titanium', 'White Titanium', 'Natural Titanium', 'Desert Titanium'],
      },
    };
    for (const [productId, { capacities, colors }] of Object.entries(expected)) {
      const names = PRODUCT_MODEL_SEEDS.filter(
        (model) => model.product_id === productId && model.country_code === 'US',
      ).map((model) => model.display_name);
      const productName = PRODUCT_TYPE_SEEDS.find(
        (type) => type.product_id === productId,
      )?.product_name;
      const wanted = capacities.flatMap((capacity) =>
        colors.map((color) => `${productName} ${capacity} ${color}`),
      );
      expect([...names].sort()).toEqual([...wanted].sort());
      expect(names.every((name, index) => names.indexOf(name) === index)).toBe(true);
      for (const model of PRODUCT_MODEL_SEEDS.filter(
        (m) => m.product_id === productId && m.country_code === 'US',
      )) {
        expect(model.part_number).toMatch(/LL\/A$/);
      }
    }
  });

  // The countries the 2024 seed covered; countries added since sell the iPhone 16 too, but no
  // full part number of theirs was found (docs/catalog.md, "Today's lineup").
  it('gives every country of the 2024 seed the iPhone 16 family, apart from the documented gaps', () => {
    const seeded2024 = ['US', 'GB', 'CA', 'AU', 'DE', 'FR', 'JP', 'CN', 'SG'];
    for (const country_code of seeded2024) {
      for (const productId of IPHONE16_FAMILY) {
        const count = PRODUCT_MODEL_SEEDS.filter(
          (model) => model.country_code === country_code && model.product_id === productId,
        ).length;
        if (KNOWN_GAPS.has(`${country_code}:${productId}`)) expect(count).toBe(0);
        else expect(count, `${country_code} ${productId}`).toBeGreaterThan(0);
      }
    }
  });

  it('uses each country’s own suffix for the iPhone 16 Pro Max', () => {
    const suffixes: Record<string, string> = {
      US: 'LL/A',
      GB: 'QN/A',
      CA: 'VC/A',
      AU: 'X/A',
      DE: 'ZD/A',
      FR: 'ZD/A',
      JP: 'J/A',
      CN: 'CH/A',
      SG: 'ZP/A',
    };
    for (const [code, suffix] of Object.entries(suffixes)) {
      const models = PRODUCT_MODEL_SEEDS.filter(
        (model) => model.country_code === code && model.product_id === 'iphone16promax',
      );
      expect(models.length, code).toBeGreaterThan(0);
      for (const model of models) expect(model.part_number.endsWith(suffix)).toBe(true);
    }
    const desert = PRODUCT_MODEL_SEEDS.find(
      (model) =>
        model.country_code === 'GB' &&
        model.display_name === 'iPhone 16 Pro Max 256GB Desert Titanium',
    );
    expect(desert?.part_number).toBe('MYWX3QN/A');
  });
});

describe('today’s lineup', () => {
  const current = listCurrentProductTypes(PRODUCT_TYPE_SEEDS, PRODUCT_MODEL_SEEDS);

  it('offers the newest iPhones before any older type', () => {
    expect(current.slice(0, 5).map((type) => type.product_name)).toEqual([
      'iPhone 18 Pro Max',
      'iPhone 18 Pro',
      'iPhone Duo',
      'iPhone 17',
      'iPhone Air',
    ]);
  });

  it('sells iPhone 18 Pro, 18 Pro Max and Duo in the US, Canada and the UK in every configuration', () => {
    const expected = { iphone18pro: 16, iphone18promax: 16, iphoneduo: 8 };
    for (const [productId, count] of Object.entries(expected)) {
      for (const country of ['US', 'CA', 'GB']) {
        const models = PRODUCT_MODEL_SEEDS.filter(
          (m) => m.product_id === productId && m.country_code === country && isModelSold(m),
        );
        expect(models.length, `${productId} ${country}`).toBe(count);
      }
    }
    const black = PRODUCT_MODEL_SEEDS.find((m) => m.part_number === 'MJQ34LL/A');
    expect(black?.display_name).toBe('iPhone 18 Pro 256GB Black');
  });

  it('keeps the iPhone 17 Pro models but sells them only where its buy page was not seen redirecting', () => {
    const proModels = PRODUCT_MODEL_SEEDS.filter((m) => m.product_id.startsWith('iphone17pro'));
    for (const country of ['US', 'AU', 'JP', 'CN', 'SG']) {
      const models = proModels.filter((m) => m.country_code === country);
      expect(models.length, country).toBeGreaterThan(0);
      expect(
        models.every((m) => !isModelSold(m)),
        country,
      ).toBe(true);
    }
    const germany = proModels.filter((m) => m.country_code === 'DE');
    expect(germany.length).toBe(3);
    expect(germany.every(isModelSold)).toBe(true);
  });

  it('sells Hong Kong all 32 iPhone 18 Pro and Pro Max configurations, each with its source', () => {
    for (const productId of ['iphone18pro', 'iphone18promax']) {
      const models = PRODUCT_MODEL_SEEDS.filter(
        (m) => m.product_id === productId && m.country_code === 'HK',
      );
      expect(models.length, productId).toBe(16);
      for (const model of models) {
        expect(model.part_number).toMatch(/ZA\/A$/);
        expect(isModelSold(model), model.part_number).toBe(true);
        expect(model.source, model.part_number).toContain('Dgon5000/iphone-stock-watch-hk');
      }
    }
    const black = PRODUCT_MODEL_SEEDS.find((m) => m.part_number === 'MJRP4ZA/A');
    expect(black?.display_name).toBe('iPhone 18 Pro 256GB Black');
    const burgundy = PRODUCT_MODEL_SEEDS.find((m) => m.part_number === 'MJXQ4ZA/A');
    expect(burgundy?.display_name).toBe('iPhone 18 Pro Max 256GB Burgundy');
  });

  it('sells the Thai and UAE iPhone 18 numbers seen, and Hong Kong and Taiwan iPhone 17 and Air', () => {
    const count = (productId: string, country: string) =>
      PRODUCT_MODEL_SEEDS.filter(
        (m) => m.product_id === productId && m.country_code === country && isModelSold(m),
      ).length;
    expect(count('iphone18promax', 'TH')).toBe(16);
    expect(count('iphone18pro', 'TH')).toBe(1);
    expect(count('iphone18pro', 'AE')).toBe(16);
    expect(count('iphone18promax', 'AE')).toBe(16);
    expect(count('iphoneduo', 'AE')).toBe(8);
    for (const country of ['HK', 'TW']) {
      expect(count('iphone17', country), country).toBe(10);
      expect(count('iphoneair', country), country).toBe(12);
    }
    const uae = PRODUCT_MODEL_SEEDS.find((m) => m.part_number === 'MJX94AH/A');
    expect(uae?.display_name).toBe('iPhone 18 Pro Max 512GB Black');
  });

  it('sells the US Macs of the 2026 refresh and no longer the ones it replaced', () => {
    const us = (part: string) =>
      PRODUCT_MODEL_SEEDS.find((m) => m.country_code === 'US' && m.part_number === part);
    const refreshed = ['MHQK4LL/A', 'MHQN4LL/A', 'MHL64LL/A', 'MHL74LL/A', 'MDE14LL/A'];
    const laptops = ['MGDR4LL/A', 'MGEA4LL/A', 'MGDU4LL/A', 'MDH74LL/A', 'MDV94LL/A'];
    for (const part of [...refreshed, ...laptops, 'MWUF3LL/A', 'MWV13LL/A']) {
      expect(us(part) !== undefined && isModelSold(us(part)!), part).toBe(true);
    }
    const replaced = ['MU9D3LL/A', 'MU9E3LL/A', 'MCYT4LL/A', 'MCX44LL/A', 'MU963LL/A'];
    for (const part of [...replaced, 'MU973LL/A', 'MDE04LL/A']) {
      expect(us(part)?.retired_on, part).toBe('2026-09-22');
    }
  });

  it('sells no MacBook Pro M1 Pro, MacBook Air M2, Apple Watch Series 8 or Ultra (1st generation)', () => {
    const retiredLines = /M1 Pro|MacBook Air 13-inch M2|Series 8|^Apple Watch Ultra 49mm/;
    const models = PRODUCT_MODEL_SEEDS.filter((m) => retiredLines.test(m.display_name));
    expect(models.length).toBe(14);
    expect(models.filter(isModelSold)).toEqual([]);
    const ids = new Set(current.map((type) => type.product_id));
    expect(ids.has('applewatch') || ids.has('applewatchultra')).toBe(false);
  });

  it('hides retired types from new searches while keeping their models', () => {
    const ids = new Set(current.map((type) => type.product_id));
    expect(ids.has('iphone16pro')).toBe(false);
    expect(PRODUCT_MODEL_SEEDS.some((m) => m.part_number === 'MYMJ3LL/A')).toBe(true);
    expect(ids.has('iphone16')).toBe(true);
  });
});
