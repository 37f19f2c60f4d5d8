import { describe, expect, it } from 'vitest';
import type { BuyPageProduct } from '#shared/catalog/buy-page.ts';
import type { CatalogTypeRow } from '#shared/catalog/catalog-diff.ts';
import { getActiveBuyPage } from '#shared/catalog/catalog-file.ts';
import { PRODUCT_MODEL_SEEDS, PRODUCT_TYPE_SEEDS } from '#shared/catalog/models.ts';
import { matchProductType, nameProduct, planBuyPageVisits } from '#server/catalog/sync-models.ts';

const type = (product_id: string, product_name: string): CatalogTypeRow => ({
  product_id,
  product_name,
  family: 'phone-modern',
  sort_order: 1,
  launched_on: null,
  retired_on: null,
  buy_page: '/shop/buy-iphone/iphone-18-pro',
});
const pro = type('iphone18pro', 'iPhone 18 Pro');
const proMax = type('iphone18promax', 'iPhone 18 Pro Max');
const product = (fields: Partial<BuyPageProduct>): BuyPageProduct => ({
  partNumber: 'MJQ34LL/A',
  name: null,
  title: null,
  familyType: null,
  details: null,
  ...fields,
});

describe('matchProductType', () => {
  it('takes Apple’s family key, else the longest type name the name or title starts with', () => {
    expect(matchProductType(product({ familyType: 'iphone18promax' }), [pro, proMax])).toBe(proMax);
    expect(
      matchProductType(product({ name: 'iPhone 18 Pro Max 256GB Black' }), [pro, proMax]),
    ).toBe(proMax);
    expect(matchProductType(product({ name: 'iPhone 18 Pro 256GB Black' }), [pro, proMax])).toBe(
      pro,
    );
    expect(matchProductType(product({ title: 'iPhone 18 Pro Max' }), [pro, proMax])).toBe(proMax);
    expect(matchProductType(product({ title: 'iPhone 18 Pro' }), [pro, proMax])).toBe(pro);
  });

  it('falls back to a page’s only type and leaves a shared page’s unclear product unmatched', () => {
    expect(matchProductType(product({ name: 'Something 256GB' }), [pro])).toBe(pro);
    expect(matchProductType(product({ name: 'Something 256GB' }), [pro, proMax])).toBeUndefined();
  });
});

describe('nameProduct', () => {
  it('prefers Apple’s own name, else builds one from Apple’s title or the type’s name', () => {
    expect(nameProduct(product({ name: 'iPhone 18 Pro 256GB Black' }), pro)).toEqual({
      name: 'iPhone 18 Pro 256GB Black',
      isApplesName: true,
    });
    expect(
      nameProduct(product({ title: 'iPhone 18 Pro Max', details: ['256GB', 'Deep Blue'] }), pro),
    ).toEqual({ name: 'iPhone 18 Pro Max 256GB Deep Blue', isApplesName: false });
    expect(
      nameProduct(product({ details: ['M4', '16GB/256GB'] }), type('macmini', 'Mac mini')),
    ).toEqual({ name: 'Mac mini M4 16GB/256GB', isApplesName: false });
    expect(nameProduct(product({}), pro)).toBeUndefined();
  });
});

describe('planBuyPageVisits over the bundled catalog', () => {
  const types: CatalogTypeRow[] = PRODUCT_TYPE_SEEDS.map((seed) => ({
    product_id: seed.product_id,
    product_name: seed.product_name,
    family: seed.family,
    sort_order: seed.sort_order,
    launched_on: seed.launched_on ?? null,
    retired_on: seed.retired_on ?? null,
    buy_page: getActiveBuyPage(seed),
  }));
  const models = PRODUCT_MODEL_SEEDS.map((model) => ({
    ...model,
    source: model.source ?? '',
    retired_on: model.retired_on ?? null,
  }));
  const visits = planBuyPageVisits('http://127.0.0.1:4010', types, models);
  const visited = (productId: string) =>
    visits
      .filter((visit) => visit.types.some((entry) => entry.product_id === productId))
      .map((visit) => visit.countryCode);

  it('leaves AirPods and Watch out: the research records no buy page for them (docs/catalog.md)', () => {
    const unsynced = types.filter((entry) =>
      ['earbuds', 'headphones', 'watch'].includes(entry.family),
    );
    expect(unsynced.map((entry) => entry.buy_page)).toEqual(unsynced.map(() => null));
    // AirPods Pro 3 is on sale in the US, yet no page is read for it.
    expect(models.some((m) => m.product_id === 'airpodspro' && m.retired_on === null)).toBe(true);
    expect(visited('airpodspro')).toEqual([]);
  });

  it('reads a type’s page only in the countries where it is still sold', () => {
    expect(visited('iphone17')).toEqual(['AU', 'CN', 'HK', 'JP', 'SG', 'TW', 'US']);
    expect(visited('iphone18pro')).toEqual(['AE', 'CA', 'GB', 'HK', 'TH', 'US']);
  });

  it('no longer reads the iPhone 17 Pro page, retired since 2026-09-11, though its models sell on', () => {
    const seed = PRODUCT_TYPE_SEEDS.find((entry) => entry.product_id === 'iphone17pro');
    expect(seed).toMatchObject({
      buy_page: '/shop/buy-iphone/iphone-17-pro',
      buy_page_retired_on: '2026-09-11',
    });
    expect(models.some((m) => m.product_id === 'iphone17pro' && m.country_code === 'AU')).toBe(
      true,
    );
    expect(visited('iphone17pro')).toEqual([]);
    expect(visited('iphone17promax')).toEqual([]);
  });
});
