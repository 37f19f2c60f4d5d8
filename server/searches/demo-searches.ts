import type { Db, Executor } from '#server/db/database.ts';
import {
  findStoreWithCountry,
  listProductModels,
} from '#server/db/repositories/catalog-repository.ts';
import { listCurrentProductTypes } from '#server/db/repositories/catalog-changes-repository.ts';
import { listSearchListRowsByUsers } from '#server/db/repositories/search-cards-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { createUserSearch, updateUserSearch } from './searches-service.ts';

// The demo account's sample searches must show the product working: models on sale today, so
// a newcomer's first screen never says "No longer sold", and parts the watcher asks about from
// its first cycle, so the landing page's example inventory fills within a minute or two of a
// fresh start (docs/catalog.md, "The demo account").

/** One sample search: a store, the types to watch there (most wanted first), preferred models. */
export type DemoSearchSlot = {
  store_id: string;
  product_types: readonly string[];
  preferredCount: number;
};

/** The sample searches of the demo account, in the order they are created. */
export const DEMO_SEARCH_SLOTS: readonly DemoSearchSlot[] = [
  {
    store_id: 'R095',
    product_types: ['iphone18pro', 'iphone18promax', 'iphone17'],
    preferredCount: 3,
  },
  {
    store_id: 'R075',
    product_types: ['iphoneduo', 'iphone18promax', 'iphoneair'],
    preferredCount: 2,
  },
];

/** The sample searches earlier releases made (type at store); an older install's move on. */
const EARLIER_DEMO_SEARCHES: ReadonlySet<string> = new Set([
  'iphone16pro@R095',
  'iphone16promax@R075',
]);

/** What a sample search watches: a type sold at its store, with the models to prefer. */
export type DemoSearchChoice = { product_type: string; store_id: string; part_numbers: string[] };

/**
 * The slot's first type on sale in its store's country, else the newest type sold there (the
 * catalog's order), with its first models on sale; undefined when the store is unknown or
 * nothing is sold in its country.
 */
export async function chooseDemoSearch(
  db: Executor,
  slot: DemoSearchSlot,
): Promise<DemoSearchChoice | undefined> {
  const store = await findStoreWithCountry(db, slot.store_id);
  if (store === undefined) return undefined;
  const soldHere = (await listCurrentProductTypes(db))
    .filter((type) => type.sold_in.includes(store.country_code))
    .map((type) => type.product_id);
  const productType =
    slot.product_types.find((candidate) => soldHere.includes(candidate)) ?? soldHere[0];
  if (productType === undefined) return undefined;
  const models = await listProductModels(db, productType, store.country_code);
  return {
    product_type: productType,
    store_id: slot.store_id,
    part_numbers: models
      .filter((model) => model.retired_on === null)
      .slice(0, slot.preferredCount)
      .map((model) => model.part_number),
  };
}

function toPreferredModels(choice: DemoSearchChoice) {
  return choice.part_numbers.map((part_number) => ({ part_number, is_preferred: true }));
}

/** Creates the demo account's sample searches, each for a type on sale at its store. */
export async function createDemoSearches(db: Db, user: UserRow): Promise<void> {
  for (const slot of DEMO_SEARCH_SLOTS) {
    const choice = await chooseDemoSearch(db, slot);
    if (choice === undefined) continue;
    await createUserSearch(db, user, {
      product_type: choice.product_type,
      store_id: choice.store_id,
      include_nearby_store_results: true,
      send_email_updates: true,
      product_models: toPreferredModels(choice),
    });
  }
}

/**
 * Moves the sample searches an earlier release made (iPhone 16 Pro at R095, 16 Pro Max at
 * R075) onto today's choice for their store once their type is no longer sold in its country,
 * keeping their settings. Other searches are left alone. Returns how many were moved.
 */
export async function moveRetiredDemoSearches(db: Db, user: UserRow): Promise<number> {
  const [searches = []] = await listSearchListRowsByUsers(db, [user.id]);
  let moved = 0;
  for (const search of searches) {
    if (!EARLIER_DEMO_SEARCHES.has(`${search.product_type}@${search.store_id}`)) continue;
    const slot = DEMO_SEARCH_SLOTS.find((candidate) => candidate.store_id === search.store_id);
    const choice = slot === undefined ? undefined : await chooseDemoSearch(db, slot);
    if (choice === undefined || choice.product_type === search.product_type) continue;
    const store = await findStoreWithCountry(db, search.store_id);
    const stillSold = (await listCurrentProductTypes(db)).some(
      (type) =>
        type.product_id === search.product_type &&
        store !== undefined &&
        type.sold_in.includes(store.country_code),
    );
    if (stillSold) continue;
    await updateUserSearch(db, user, search.id, {
      product_type: choice.product_type,
      store_id: search.store_id,
      include_nearby_store_results: search.include_nearby_store_results,
      show_results_only_for_preferred_models: search.show_results_only_for_preferred_models,
      send_text_updates: search.send_text_updates,
      send_email_updates: search.send_email_updates,
      max_distance_miles: search.max_distance_miles,
      product_models: toPreferredModels(choice),
    });
    moved += 1;
  }
  return moved;
}
