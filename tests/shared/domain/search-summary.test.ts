import { describe, expect, it } from 'vitest';
import { pluralizeStores, summarizeSearch } from '#shared/domain/search-summary.ts';

describe('summarizeSearch', () => {
  it('counts preferred-model stores when only preferred models are shown', () => {
    expect(
      summarizeSearch({ show_results_only_for_preferred_models: true, stores_with_inventory: 3 }),
    ).toBe('Preferred models found at 3 stores');
  });

  it('counts nearby stores otherwise', () => {
    expect(
      summarizeSearch({ show_results_only_for_preferred_models: false, stores_with_inventory: 2 }),
    ).toBe('Inventory available at 2 nearby stores');
  });

  it('uses the singular for exactly one store', () => {
    expect(
      summarizeSearch({ show_results_only_for_preferred_models: true, stores_with_inventory: 1 }),
    ).toBe('Preferred models found at 1 store');
    expect(
      summarizeSearch({ show_results_only_for_preferred_models: false, stores_with_inventory: 1 }),
    ).toBe('Inventory available at 1 nearby store');
  });

  it('reads a missing count as 0 (plural)', () => {
    expect(
      summarizeSearch({
        show_results_only_for_preferred_models: false,
        stores_with_inventory: null,
      }),
    ).toBe('Inventory available at 0 nearby stores');
    expect(
      summarizeSearch({
        show_results_only_for_preferred_models: true,
        stores_with_inventory: undefined,
      }),
    ).toBe('Preferred models found at 0 stores');
  });

  it('pluralizes every count but one', () => {
    expect([0, 1, 2, 11].map(pluralizeStores)).toEqual(['stores', 'store', 'stores', 'stores']);
  });
});
