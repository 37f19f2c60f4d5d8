import { describe, expect, it } from 'vitest';
import type { Search } from '#shared/api/searches.ts';
import { searchUpdateSchema } from '#shared/api/searches.ts';
import {
  applySettingChange,
  isMissingPreferredModel,
  parseMaxDistance,
  toSearchUpdate,
} from '#shared/domain/search-settings.ts';

const search: Search = {
  search_id: '3f1c2a4e-8d7b-4c1a-9e2f-5a6b7c8d9e0f',
  id: '3f1c2a4e-8d7b-4c1a-9e2f-5a6b7c8d9e0f',
  product_type: 'iphone16pro',
  product_name: 'iPhone 16 Pro',
  store_id: 'R075',
  store_name: 'Union Square',
  store_city: 'San Francisco',
  store_state: 'CA',
  include_nearby_store_results: true,
  show_results_only_for_preferred_models: false,
  send_text_updates: false,
  send_email_updates: true,
  max_distance_miles: null,
  product_models: [
    {
      part_number: 'MYLT3LL/A',
      display_name: 'iPhone 16 Pro 128GB Black Titanium',
      is_preferred: true,
    },
    {
      part_number: 'MYLU3LL/A',
      display_name: 'iPhone 16 Pro 128GB White Titanium',
      is_preferred: false,
    },
  ],
  stores_with_inventory: 2,
};

describe('search settings updates', () => {
  it('sends the full settings, which the contract accepts', () => {
    const update = toSearchUpdate(search);
    expect(searchUpdateSchema.safeParse(update).success).toBe(true);
    expect(update).not.toHaveProperty('product_name');
  });

  it('changes one flag and keeps everything else', () => {
    const update = applySettingChange(search, {
      kind: 'flag',
      field: 'send_text_updates',
      value: true,
    });
    expect(update).toEqual({ ...toSearchUpdate(search), send_text_updates: true });
  });

  it('changes the store', () => {
    expect(applySettingChange(search, { kind: 'store', storeId: 'R092' }).store_id).toBe('R092');
  });

  it('drops the old models when the product type changes', () => {
    const update = applySettingChange(search, { kind: 'productType', productType: 'iphone16' });
    expect(update.product_type).toBe('iphone16');
    expect(update.product_models).toEqual([]);
    expect(applySettingChange(search, { kind: 'productType', productType: 'iphone16pro' })).toEqual(
      toSearchUpdate(search),
    );
  });

  it('marks each model preferred or not from the selection', () => {
    const update = applySettingChange(search, {
      kind: 'preferredModels',
      partNumbers: ['MYLU3LL/A'],
    });
    expect(update.product_models.map((model) => [model.part_number, model.is_preferred])).toEqual([
      ['MYLT3LL/A', false],
      ['MYLU3LL/A', true],
    ]);
  });

  it('sets or clears the distance limit', () => {
    expect(applySettingChange(search, { kind: 'maxDistance', miles: 25 }).max_distance_miles).toBe(
      25,
    );
    expect(
      applySettingChange(
        { ...search, max_distance_miles: 25 },
        { kind: 'maxDistance', miles: null },
      ).max_distance_miles,
    ).toBeNull();
  });
});

describe('preferred-model hint', () => {
  it('shows when text or email is on and nothing is preferred', () => {
    const none = search.product_models.map((model) => ({ ...model, is_preferred: false }));
    expect(isMissingPreferredModel({ ...search, product_models: none })).toBe(true);
    expect(
      isMissingPreferredModel({
        ...search,
        product_models: none,
        send_email_updates: false,
        send_text_updates: true,
      }),
    ).toBe(true);
  });

  it('hides when a model is preferred or no channel is on', () => {
    expect(isMissingPreferredModel(search)).toBe(false);
    expect(
      isMissingPreferredModel({ ...search, send_email_updates: false, product_models: [] }),
    ).toBe(false);
  });
});

describe('parseMaxDistance', () => {
  it('reads empty as no limit', () => {
    expect(parseMaxDistance('  ')).toEqual({ miles: null });
  });

  it('accepts 0.5 to 500 miles', () => {
    expect(parseMaxDistance('0.5')).toEqual({ miles: 0.5 });
    expect(parseMaxDistance(' 25 ')).toEqual({ miles: 25 });
    expect(parseMaxDistance('500')).toEqual({ miles: 500 });
  });

  it('rejects out-of-range and non-numbers', () => {
    for (const input of ['0', '0.4', '501', 'ten', '-3', 'Infinity']) {
      expect(parseMaxDistance(input)).toHaveProperty('error');
    }
  });
});
