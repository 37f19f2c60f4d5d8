import type { Account } from '#shared/api/account.ts';
import type { Country, Product, Store } from '#shared/api/catalog.ts';
import type { SearchInventory } from '#shared/api/inventory.ts';
import type { Search } from '#shared/api/searches.ts';
import type { RestockEvent, SearchHistory } from '#shared/api/watch.ts';

/** Two product types. */
export const products: Product[] = [
  { product_id: 'iphone16pro', product_name: 'iPhone 16 Pro', sold_in: ['GB', 'US'] },
  {
    product_id: 'ipadair11cellular',
    product_name: 'iPad Air 11-inch (Wi-Fi + Cellular)',
    sold_in: ['GB', 'US'],
  },
];

/** Makes a store with defaults for fields the screens ignore. */
function makeStore(
  store: Pick<
    Store,
    'store_id' | 'store_name' | 'city' | 'state_code' | 'state_name' | 'country_locale'
  >,
): Store {
  return {
    address1: '1 Main St',
    address2: null,
    postal_code: null,
    telephone: null,
    store_slug: null,
    ...store,
  };
}

/** A US store with a state and a UK store without. */
export const stores: Store[] = [
  makeStore({
    store_id: 'R075',
    store_name: 'Union Square',
    city: 'San Francisco',
    state_code: 'CA',
    state_name: 'California',
    country_locale: 'en_US',
  }),
  makeStore({
    store_id: 'R092',
    store_name: 'Regent Street',
    city: 'London',
    state_code: null,
    state_name: null,
    country_locale: 'en_GB',
  }),
];

/** Countries matching the stores' locales. */
export const countries: Country[] = [
  { country_code: 'US', locale_code: 'en_US', display_name: 'United States' },
  { country_code: 'GB', locale_code: 'en_GB', display_name: 'United Kingdom' },
];

/** A saved search with one preferred model. */
export const search: Search = {
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
  stores_with_inventory: 1,
};

/** The search's inventory: its store with one preferred model, a nearby store with none. */
export const inventory: SearchInventory = {
  stores: [
    {
      store_id: 'R075',
      store_name: 'Union Square',
      store_city: 'San Francisco',
      store_state: 'CA',
      distance_miles: null,
      available_models: [search.product_models[0]],
    },
    {
      store_id: 'R014',
      store_name: 'Stonestown',
      store_city: 'San Francisco',
      store_state: 'CA',
      distance_miles: 4.2,
      available_models: [],
    },
  ],
  last_checked_at: null,
};

/** A Better-plan account (no texts). */
export const account: Account = {
  email: 'pat@example.com',
  phone_number: '+14155550123',
  enable_notifications: true,
  plan: 'better',
  capabilities: { text_notifications_allowed: false, web_searches_allowed: true, search_limit: 5 },
  quiet_hours: {
    enabled: false,
    start: '22:00',
    end: '07:00',
    time_zone: 'UTC',
    always_for_preferred_at_my_store: false,
  },
  time_zone: 'America/Los_Angeles',
};

/** A restock-history event at the search's store, with overrides. */
export function makeRestockEvent(overrides: Partial<RestockEvent> = {}): RestockEvent {
  return {
    id: '1',
    store_id: 'R075',
    store_name: 'Union Square',
    distance_miles: 0,
    part_number: 'MYLT3LL/A',
    display_name: 'iPhone 16 Pro 128GB Black Titanium',
    from_status: 'unavailable',
    to_status: 'available',
    pickup_quote: 'Available today',
    observed_at: new Date().toISOString(),
    ...overrides,
  };
}

/** Seven UTC days from Mon 2 Jun 2025 with the given restock counts (zeros by default). */
export function makeDaily(counts: number[] = [0, 0, 0, 0, 0, 0, 0]): SearchHistory['daily'] {
  return counts.map((restocks, index) => ({
    date: `2025-06-${String(2 + index).padStart(2, '0')}`,
    restocks,
  }));
}

/** A search's history: nothing restocked, checks current. */
export const emptyHistory: SearchHistory = {
  days: 7,
  events: [],
  daily: makeDaily(),
  last_checked_at: null,
  is_stale: false,
};
