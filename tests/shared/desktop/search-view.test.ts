import { describe, expect, it } from 'vitest';
import { newSearchSchema, searchSchema, searchUpdateSchema } from '#shared/api/searches.ts';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import {
  applySearchUpdate,
  checkCatalogChoice,
  createLocalSearch,
  toSearchView,
} from '#shared/desktop/search-view.ts';

const catalog = createDesktopCatalog();
const ID = '6f1f3b5e-8d1c-4d7a-9a51-6c1f2b9b0a11';
const models = catalog.listModels('iphone16pro', 'US');

describe('local searches in the API shape', () => {
  it('creates with the API defaults and keeps only preferred models sold there', () => {
    const input = newSearchSchema.parse({
      product_type: 'iphone16pro',
      store_id: 'R095',
      product_models: [
        { part_number: models[0].part_number, is_preferred: true },
        { part_number: 'NOTSOLD/A', is_preferred: true },
        { part_number: models[1].part_number, is_preferred: false },
      ],
    });
    const local = createLocalSearch(input, catalog, ID, '2026-11-23T10:00:00.000Z');
    expect(local).toMatchObject({
      include_nearby_store_results: true,
      show_results_only_for_preferred_models: false,
      max_distance_miles: null,
      preferred_parts: [models[0].part_number],
    });
  });

  it('shows a local search as a valid Search with names, models and email/text off', () => {
    const local = createLocalSearch(
      newSearchSchema.parse({ product_type: 'iphone16pro', store_id: 'R095' }),
      catalog,
      ID,
      '2026-11-23T10:00:00.000Z',
    );
    const view = toSearchView({ ...local, preferred_parts: [models[2].part_number] }, catalog, 3);
    expect(searchSchema.parse(view)).toEqual(view);
    expect(view).toMatchObject({
      search_id: ID,
      product_name: 'iPhone 16 Pro',
      store_name: 'Fifth Avenue',
      store_city: 'New York',
      store_state: 'NY',
      send_email_updates: false,
      send_text_updates: false,
      stores_with_inventory: 3,
    });
    expect(view.product_models).toHaveLength(models.length);
    expect(view.product_models.filter((model) => model.is_preferred)).toEqual([
      { ...models[2], is_preferred: true },
    ]);
  });

  it('keeps the notification cadence a create or update sets, and the saved one otherwise', () => {
    const local = createLocalSearch(
      newSearchSchema.parse({ product_type: 'iphone16pro', store_id: 'R095' }),
      catalog,
      ID,
      '2026-11-23T10:00:00.000Z',
    );
    expect(local.alert_cadence_minutes).toBeNull();
    const view = toSearchView(local, catalog, null);
    const update = (cadence?: number) => {
      const rest = { ...view };
      delete rest.alert_cadence_minutes;
      return searchUpdateSchema.parse(
        cadence === undefined ? rest : { ...rest, alert_cadence_minutes: cadence },
      );
    };
    const hourly = applySearchUpdate(local, update(60), catalog);
    expect(hourly.alert_cadence_minutes).toBe(60);
    expect(applySearchUpdate(hourly, update(), catalog).alert_cadence_minutes).toBe(60);
    expect(toSearchView(hourly, catalog, null).alert_cadence_minutes).toBe(60);
    expect(searchUpdateSchema.safeParse({ ...view, alert_cadence_minutes: -1 }).success).toBe(
      false,
    );
  });

  it('drops preferred models of the old product when the product type changes', () => {
    const local = {
      ...createLocalSearch(
        newSearchSchema.parse({ product_type: 'iphone16pro', store_id: 'R095' }),
        catalog,
        ID,
        '2026-11-23T10:00:00.000Z',
      ),
      preferred_parts: [models[0].part_number],
    };
    const updated = applySearchUpdate(
      local,
      searchUpdateSchema.parse({
        product_type: 'iphone16',
        store_id: 'R095',
        include_nearby_store_results: false,
        show_results_only_for_preferred_models: true,
        send_text_updates: true,
        send_email_updates: true,
        max_distance_miles: 12,
        product_models: [{ part_number: models[0].part_number, is_preferred: true }],
      }),
      catalog,
    );
    expect(updated).toMatchObject({
      product_type: 'iphone16',
      include_nearby_store_results: false,
      show_results_only_for_preferred_models: true,
      max_distance_miles: 12,
      preferred_parts: [],
    });
  });

  it('names the field of an unknown product, store, or a product not sold in that country', () => {
    expect(checkCatalogChoice(catalog, 'iphone16', 'R095')).toBeNull();
    expect(checkCatalogChoice(catalog, 'toaster', 'R095')?.field).toBe('product_type');
    expect(checkCatalogChoice(catalog, 'iphone16', 'R999')?.field).toBe('store_id');
    // Only the iPhone 16 family is sold outside the US in the curated catalog.
    const ukStore = catalog.listStores().find((store) => store.country_locale === 'en_GB');
    expect(checkCatalogChoice(catalog, 'iphone14', ukStore!.store_id)?.field).toBe('product_type');
  });

  it('refuses a new search of a type retired in the store’s country, but keeps an existing one', () => {
    const dresden = catalog.listStores().find((store) => store.store_id === 'R430');
    // iPhone 17 Pro Max: retired in the US, still sold in Germany.
    expect(checkCatalogChoice(catalog, 'iphone17promax', 'R095')?.field).toBe('product_type');
    expect(checkCatalogChoice(catalog, 'iphone17promax', dresden!.store_id)).toBeNull();
    // A type sold nowhere any more is still allowed where it had models, as by the API.
    expect(checkCatalogChoice(catalog, 'iphone16pro', 'R095')).toBeNull();
    const existing = { product_type: 'iphone17promax', store_id: 'R095' };
    expect(checkCatalogChoice(catalog, 'iphone17promax', 'R095', existing)).toBeNull();
    const otherUsStore = catalog
      .listStores()
      .find((store) => store.country_locale === 'en_US' && store.store_id !== 'R095');
    expect(
      checkCatalogChoice(catalog, 'iphone17promax', otherUsStore!.store_id, existing)?.field,
    ).toBe('product_type');
    expect(catalog.isSoldIn('iphone17promax', 'US')).toBe(false);
    expect(catalog.isSoldIn('iphone17promax', 'DE')).toBe(true);
  });

  it('lists the bundled catalog in the API order: newest types first, none sold nowhere', () => {
    expect(catalog.listProducts()[0]).toEqual({
      product_id: 'iphone18promax',
      product_name: 'iPhone 18 Pro Max',
      sold_in: ['AE', 'CA', 'GB', 'HK', 'TH', 'US'],
    });
    const pro = catalog.listProducts().find((product) => product.product_id === 'iphone17promax');
    expect(pro?.sold_in).toEqual(['DE']);
    const ids = catalog.listProducts().map((product) => product.product_id);
    expect(ids).not.toContain('iphone16pro');
    // A search made before the type's retirement still finds it.
    expect(catalog.findProduct('iphone16pro')?.product_name).toBe('iPhone 16 Pro');
    const names = catalog.listCountries().map((country) => country.display_name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(catalog.listStores().every((store) => !('latitude' in store))).toBe(true);
  });
});
