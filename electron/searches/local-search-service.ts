import type { SearchInventory } from '#shared/api/inventory.ts';
import type { Search } from '#shared/api/searches.ts';
import type { SearchHistory } from '#shared/api/watch.ts';
import type { DesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import {
  FREE_LIMIT_MESSAGE,
  FREE_LIMIT_REASON,
  FREE_LOCAL_SEARCH_LIMIT,
  type LocalSearch,
} from '#shared/desktop/local-search.ts';
import {
  applySearchUpdate,
  checkCatalogChoice,
  createLocalSearch,
  toSearchView,
  type ParsedNewSearch,
  type ParsedSearchUpdate,
} from '#shared/desktop/search-view.ts';
import { DesktopError } from '#electron/ipc/desktop-error.ts';

/** Where local searches are kept (the app store). */
export type LocalSearchStorage = {
  readSearches: () => LocalSearch[];
  writeSearches: (searches: LocalSearch[]) => void;
};

/** What the service needs of the watch loop. */
export type LocalSearchWatch = {
  countStoresWithInventory: (search: LocalSearch) => number;
  buildInventory: (search: LocalSearch) => SearchInventory;
  buildHistory: (search: LocalSearch, days: number) => SearchHistory;
  /** Asks for a check soon, e.g. for a new search; must not throw. */
  requestCheck: () => void;
};

/** Everything the service depends on, injected for tests. */
export type LocalSearchServiceDeps = {
  storage: LocalSearchStorage;
  watch: LocalSearchWatch;
  catalog: DesktopCatalog;
  /** True once the user logged in: the free limit no longer applies. */
  isUnlimited: () => boolean;
  newId: () => string;
  now: () => number;
  /** Called after any change so the window and tray refresh. */
  onChange?: () => void;
};

/** The searches kept on this Mac, in the API's shapes, with the free limit enforced here. */
export type LocalSearchService = {
  list: () => Search[];
  get: (id: string) => Search;
  create: (input: ParsedNewSearch) => Search;
  update: (id: string, update: ParsedSearchUpdate) => Search;
  remove: (id: string) => null;
  inventory: (id: string) => SearchInventory;
  history: (id: string, days: number) => SearchHistory;
};

const NOT_FOUND_MESSAGE = "This search doesn't exist. It may have been deleted.";

/** What the person reads when the catalog refuses a choice; the mismatch is the detail. */
const MISMATCH_REASONS: Readonly<Record<'product_type' | 'store_id', string>> = {
  product_type:
    "This product can't be watched at that store. Please choose another product or store.",
  store_id: "That store isn't in Shelfwatch's store list. Please choose another store.",
};

/** Oldest first, as the API lists an account's searches (and the free one is the oldest). */
function compareByAge(a: LocalSearch, b: LocalSearch): number {
  return a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
}

/**
 * The searches the watch loop checks: all of them while logged in; logged out, only as many
 * as the free app allows, the oldest first. The others stay saved (and come back at the next
 * login) but no longer cost requests at Apple.
 */
export function selectWatchedSearches(
  searches: readonly LocalSearch[],
  isUnlimited: boolean,
): LocalSearch[] {
  const ordered = [...searches].sort(compareByAge);
  return isUnlimited ? ordered : ordered.slice(0, FREE_LOCAL_SEARCH_LIMIT);
}

/** Creates the service; every method throws DesktopError for what the user can fix. */
export function createLocalSearchService(deps: LocalSearchServiceDeps): LocalSearchService {
  const { storage, watch, catalog } = deps;
  const find = (id: string): LocalSearch => {
    const search = storage.readSearches().find((candidate) => candidate.id === id);
    if (search === undefined) throw new DesktopError('not_found', NOT_FOUND_MESSAGE);
    return search;
  };
  const view = (search: LocalSearch): Search =>
    toSearchView(search, catalog, watch.countStoresWithInventory(search));
  const checkChoice = (productType: string, storeId: string, current?: LocalSearch) => {
    const mismatch = checkCatalogChoice(catalog, productType, storeId, current);
    if (mismatch !== null) {
      throw new DesktopError('invalid_input', MISMATCH_REASONS[mismatch.field], {
        message: mismatch.message,
        field: mismatch.field,
      });
    }
  };
  const changed = () => {
    watch.requestCheck();
    deps.onChange?.();
  };

  return {
    // Oldest first, as the API lists an account's searches.
    list: () => [...storage.readSearches()].sort(compareByAge).map(view),
    get: (id) => view(find(id)),
    create: (input) => {
      const searches = storage.readSearches();
      // Enforced here, not only in the window: the free app watches one search.
      if (!deps.isUnlimited() && searches.length >= FREE_LOCAL_SEARCH_LIMIT) {
        throw new DesktopError(FREE_LIMIT_REASON, FREE_LIMIT_MESSAGE);
      }
      checkChoice(input.product_type, input.store_id);
      const created = createLocalSearch(
        input,
        catalog,
        deps.newId(),
        new Date(deps.now()).toISOString(),
      );
      storage.writeSearches([...searches, created]);
      changed();
      return view(created);
    },
    update: (id, update) => {
      const current = find(id);
      checkChoice(update.product_type, update.store_id, current);
      const updated = applySearchUpdate(current, update, catalog);
      storage.writeSearches(
        storage.readSearches().map((search) => (search.id === id ? updated : search)),
      );
      changed();
      return view(updated);
    },
    remove: (id) => {
      find(id);
      storage.writeSearches(storage.readSearches().filter((search) => search.id !== id));
      deps.onChange?.();
      return null;
    },
    inventory: (id) => watch.buildInventory(find(id)),
    history: (id, days) => watch.buildHistory(find(id), days),
  };
}
