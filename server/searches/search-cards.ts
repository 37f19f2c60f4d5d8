import type { Search } from '#shared/api/searches.ts';
import { getDistanceUnit } from '#shared/domain/alert-distance.ts';
import type { Executor } from '#server/db/database.ts';
import {
  findOwnedSearchCard,
  type SearchCardRow,
  type SearchListRow,
  type SearchModel,
} from '#server/db/repositories/search-cards-repository.ts';
import type { UserRow } from '#server/db/schema.ts';
import { notFound } from '#server/base/app-error.ts';
import type { CardCatalog, CardPlace } from '#server/catalog/card-catalog.ts';

/** One of the user's searches, in one statement; anyone else's is a 404. */
export async function getUserSearch(
  db: Executor,
  user: UserRow,
  searchId: string,
): Promise<Search> {
  return composeCardSearch(await requireSearchCard(db, user.id, searchId));
}

/** One of the user's search cards as read; anyone else's is a 404. */
export async function requireSearchCard(
  db: Executor,
  userId: string,
  searchId: string,
): Promise<SearchCardRow> {
  const card = await findOwnedSearchCard(db, userId, searchId);
  if (card === undefined) {
    throw notFound('Search');
  }
  return card;
}

/** The API's view of a search card: names, models with preferred flags, inventory count. */
export function composeCardSearch(card: SearchCardRow): Search {
  return composeSearch(
    card,
    card.product_name,
    { ...card, country_code: card.home_country_code },
    card.models,
  );
}

/** Where a store the catalog does not hold is: its names fall back as the joins' nulls did. */
const UNKNOWN_PLACE: CardPlace = {
  store_name: null,
  store_city: null,
  store_state: null,
  country_code: null,
};

/** A listed search with its names and models from the catalog in memory. */
export function composeListedSearch(row: SearchListRow, catalog: CardCatalog): Search {
  const place = catalog.placeOf(row.store_id) ?? UNKNOWN_PLACE;
  return composeSearch(
    row,
    catalog.productNameOf(row.product_type) ?? null,
    place,
    catalog.modelsOf(row.product_type, place.country_code),
  );
}

/**
 * The API's search from its own columns, its product's name, its store's place and the
 * models of its product in that store's country.
 */
function composeSearch(
  card: SearchListRow,
  productName: string | null,
  place: CardPlace,
  models: readonly SearchModel[],
): Search {
  const preferred = new Set(card.preferred_parts);
  return {
    search_id: card.id,
    id: card.id,
    product_type: card.product_type,
    product_name: productName ?? card.product_type,
    store_id: card.store_id,
    store_name: place.store_name ?? card.store_id,
    store_city: place.store_city ?? '',
    store_state: place.store_state,
    include_nearby_store_results: card.include_nearby_store_results,
    show_results_only_for_preferred_models: card.show_results_only_for_preferred_models,
    send_text_updates: card.send_text_updates,
    send_email_updates: card.send_email_updates,
    max_distance_miles: card.max_distance_miles,
    distance_unit: getDistanceUnit(place.country_code ?? 'US'),
    alert_cadence_minutes: card.alert_cadence_minutes,
    product_models: models.map((model) => ({
      part_number: model.part_number,
      display_name: model.display_name,
      is_preferred: preferred.has(model.part_number),
    })),
    stores_with_inventory: card.stores_with_inventory,
    is_paused: card.is_paused,
  };
}
