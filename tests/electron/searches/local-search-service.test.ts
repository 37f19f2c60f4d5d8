import { describe, expect, it, vi } from 'vitest';
import { newSearchSchema, searchUpdateSchema } from '#shared/api/searches.ts';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import { FREE_LIMIT_REASON, type LocalSearch } from '#shared/desktop/local-search.ts';
import { DesktopError } from '#electron/ipc/desktop-error.ts';
import {
  createLocalSearchService,
  selectWatchedSearches,
} from '#electron/searches/local-search-service.ts';

const catalog = createDesktopCatalog();

/** A service over an in-memory list, with the watch loop's views faked. */
function createService(options: { isUnlimited?: boolean } = {}) {
  let stored: LocalSearch[] = [];
  let idCounter = 0;
  const requestCheck = vi.fn();
  const onChange = vi.fn();
  const service = createLocalSearchService({
    storage: {
      readSearches: () => stored,
      writeSearches: (searches) => {
        stored = searches;
      },
    },
    watch: {
      countStoresWithInventory: () => 2,
      buildInventory: () => ({ stores: [], last_checked_at: null }),
      buildHistory: (_search, days) => ({
        days,
        events: [],
        daily: [],
        last_checked_at: null,
        is_stale: false,
      }),
      requestCheck,
    },
    catalog,
    isUnlimited: () => options.isUnlimited ?? false,
    newId: () => `00000000-0000-4000-8000-${String(++idCounter).padStart(12, '0')}`,
    now: () => Date.UTC(2026, 10, 23, 10, 0, idCounter),
    onChange,
  });
  return { service, requestCheck, onChange, read: () => stored };
}

const newSearch = (productType = 'iphone16pro', storeId = 'R095') =>
  newSearchSchema.parse({ product_type: productType, store_id: storeId });

/** The DesktopError a call throws. */
function catchDesktopError(call: () => unknown): DesktopError {
  try {
    call();
  } catch (error) {
    if (error instanceof DesktopError) return error;
    throw error;
  }
  throw new Error('expected a DesktopError');
}

describe('local searches on the Mac', () => {
  it('creates the free search, stores it and asks for a check at once', () => {
    const { service, requestCheck, read } = createService();
    const created = service.create(newSearch());
    expect(created).toMatchObject({ product_name: 'iPhone 16 Pro', stores_with_inventory: 2 });
    expect(read()).toHaveLength(1);
    expect(requestCheck).toHaveBeenCalledTimes(1);
    expect(service.list().map((search) => search.search_id)).toEqual([created.search_id]);
  });

  it('refuses a second search without login, in the main process, storing nothing', () => {
    const { service, read } = createService();
    service.create(newSearch());
    const error = catchDesktopError(() => service.create(newSearch('iphone16', 'R095')));
    expect(error.code).toBe(FREE_LIMIT_REASON);
    expect(error.reason).toMatch(/Log in/);
    expect(read()).toHaveLength(1);
  });

  it('allows more searches once unlimited (after login)', () => {
    const { service } = createService({ isUnlimited: true });
    service.create(newSearch());
    service.create(newSearch('iphone16', 'R095'));
    service.create(newSearch('iphone16plus', 'R095'));
    expect(service.list()).toHaveLength(3);
  });

  it('after logout watches the free search only (the oldest), keeping the others saved', () => {
    const { service, read } = createService({ isUnlimited: true });
    const first = service.create(newSearch());
    service.create(newSearch('iphone16', 'R095'));
    service.create(newSearch('iphone16plus', 'R095'));
    // Stored newest first, as a list edited by hand could be: age decides, not place.
    const stored = [...read()].reverse();
    expect(selectWatchedSearches(stored, true)).toHaveLength(3);
    expect(selectWatchedSearches(stored, false).map((search) => search.id)).toEqual([
      first.search_id,
    ]);
    expect(read()).toHaveLength(3);
  });

  it('names the field of a product or store the catalog does not know', () => {
    const { service, read } = createService();
    const error = catchDesktopError(() => service.create(newSearch('iphone16pro', 'R999')));
    expect(error).toMatchObject({
      code: 'invalid_input',
      reason: "That store isn't in Shelfwatch's store list. Please choose another store.",
      message: 'store_id: Unknown store',
      field: 'store_id',
    });
    expect(read()).toHaveLength(0);
  });

  it('updates and removes its own searches; an unknown id is not found', () => {
    const { service, read } = createService();
    const created = service.create(newSearch());
    const part = created.product_models[0].part_number;
    const updated = service.update(
      created.search_id,
      searchUpdateSchema.parse({
        ...created,
        include_nearby_store_results: false,
        product_models: [{ part_number: part, is_preferred: true }],
      }),
    );
    expect(updated.include_nearby_store_results).toBe(false);
    expect(read()[0].preferred_parts).toEqual([part]);
    const missing = '00000000-0000-4000-8000-999999999999';
    expect(catchDesktopError(() => service.get(missing)).code).toBe('not_found');
    expect(catchDesktopError(() => service.remove(missing)).code).toBe('not_found');
    expect(service.remove(created.search_id)).toBeNull();
    expect(read()).toHaveLength(0);
  });

  it('refuses a new search of a type retired in the store’s country, and keeps an older one', () => {
    const { service, read } = createService({ isUnlimited: true });
    // iPhone 17 Pro Max: retired in the US (Fifth Avenue), still sold in Germany (Dresden).
    const error = catchDesktopError(() => service.create(newSearch('iphone17promax', 'R095')));
    expect(error).toMatchObject({ code: 'invalid_input', field: 'product_type' });
    expect(read()).toHaveLength(0);
    const created = service.create(newSearch('iphone17promax', 'R430'));
    expect(created.product_name).toBe('iPhone 17 Pro Max');

    // As if kept on the Mac from before the US retirement: it still reads and saves...
    read()[0].store_id = 'R095';
    const view = service.get(created.search_id);
    expect(view.store_name).toBe('Fifth Avenue');
    expect(view.product_models.length).toBeGreaterThan(0);
    const saved = service.update(
      created.search_id,
      searchUpdateSchema.parse({ ...view, include_nearby_store_results: false }),
    );
    expect(saved.include_nearby_store_results).toBe(false);
    // ...but cannot move to another US store.
    const moved = catchDesktopError(() =>
      service.update(created.search_id, searchUpdateSchema.parse({ ...saved, store_id: 'R075' })),
    );
    expect(moved.field).toBe('product_type');
    expect(read()[0].store_id).toBe('R095');
  });
});
