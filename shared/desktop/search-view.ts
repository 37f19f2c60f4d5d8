import type { z } from 'zod';
import { getDistanceUnit } from '#shared/domain/alert-distance.ts';
import type { newSearchSchema, Search, searchUpdateSchema } from '#shared/api/searches.ts';
import type { DesktopCatalog } from './desktop-catalog.ts';
import { DEFAULT_ALERT_CADENCE_MINUTES } from '#shared/watch/alert-cadence.ts';
import type { LocalSearch } from './local-search.ts';

/** A create-search payload after schema parsing. */
export type ParsedNewSearch = z.output<typeof newSearchSchema>;
/** An update payload after schema parsing. */
export type ParsedSearchUpdate = z.output<typeof searchUpdateSchema>;

/** Input the catalog does not know, with the field to name in the error. */
export type CatalogMismatch = { field: 'product_type' | 'store_id'; message: string };

/**
 * A local search in the API's Search shape, so the website's screens show it unchanged. Local
 * searches alert on the Mac, so their email and text switches are always off.
 */
export function toSearchView(
  search: LocalSearch,
  catalog: DesktopCatalog,
  storesWithInventory: number | null,
): Search {
  const store = catalog.findStore(search.store_id);
  const preferred = new Set(search.preferred_parts);
  const models =
    store === undefined ? [] : catalog.listModels(search.product_type, store.country_code);
  return {
    search_id: search.id,
    id: search.id,
    product_type: search.product_type,
    product_name: catalog.findProduct(search.product_type)?.product_name ?? search.product_type,
    store_id: search.store_id,
    store_name: store?.store_name ?? search.store_id,
    store_city: store?.city ?? '',
    store_state: store?.state_code ?? null,
    include_nearby_store_results: search.include_nearby_store_results,
    show_results_only_for_preferred_models: search.show_results_only_for_preferred_models,
    send_text_updates: false,
    send_email_updates: false,
    max_distance_miles: search.max_distance_miles,
    ...(store === undefined ? {} : { distance_unit: getDistanceUnit(store.country_code) }),
    alert_cadence_minutes: search.alert_cadence_minutes ?? DEFAULT_ALERT_CADENCE_MINUTES,
    product_models: models.map((model) => ({
      part_number: model.part_number,
      display_name: model.display_name,
      is_preferred: preferred.has(model.part_number),
    })),
    stores_with_inventory: storesWithInventory,
  };
}

/**
 * Checks that the product type and store exist and that the type is sold in the store's
 * country. A search keeping its own type and store (`current`) passes even once the type is
 * retired there: it keeps working; only a new choice must be on sale.
 */
export function checkCatalogChoice(
  catalog: DesktopCatalog,
  productType: string,
  storeId: string,
  current?: { product_type: string; store_id: string },
): CatalogMismatch | null {
  if (catalog.findProduct(productType) === undefined) {
    return { field: 'product_type', message: 'product_type: Unknown product type' };
  }
  const store = catalog.findStore(storeId);
  if (store === undefined) return { field: 'store_id', message: 'store_id: Unknown store' };
  const isUnchanged = current?.product_type === productType && current.store_id === storeId;
  // As the API: a type on sale elsewhere is refused where it is not (retired there); one sold
  // nowhere any more stays allowed where it had models, its search saying "no longer sold".
  const isRetiredThere =
    !isUnchanged &&
    (catalog.findProduct(productType)?.sold_in.length ?? 0) > 0 &&
    !catalog.isSoldIn(productType, store.country_code);
  if (isRetiredThere || catalog.listModels(productType, store.country_code).length === 0) {
    return {
      field: 'product_type',
      message: "product_type: This product isn't sold in that store's country",
    };
  }
  return null;
}

/** Preferred parts of a payload, keeping only models the product has in the store's country. */
function pickPreferredParts(
  catalog: DesktopCatalog,
  productType: string,
  storeId: string,
  models: readonly { part_number: string; is_preferred: boolean }[] | undefined,
): string[] {
  const store = catalog.findStore(storeId);
  if (store === undefined || models === undefined) return [];
  const sold = new Set(
    catalog.listModels(productType, store.country_code).map((model) => model.part_number),
  );
  return [
    ...new Set(
      models
        .filter((model) => model.is_preferred && sold.has(model.part_number))
        .map((model) => model.part_number),
    ),
  ];
}

/** A new local search from a checked create payload (same defaults as the API). */
export function createLocalSearch(
  input: ParsedNewSearch,
  catalog: DesktopCatalog,
  id: string,
  createdAt: string,
): LocalSearch {
  return {
    id,
    product_type: input.product_type,
    store_id: input.store_id,
    include_nearby_store_results: input.include_nearby_store_results ?? true,
    show_results_only_for_preferred_models: input.show_results_only_for_preferred_models ?? false,
    max_distance_miles: input.max_distance_miles ?? null,
    alert_cadence_minutes: input.alert_cadence_minutes ?? null,
    preferred_parts: pickPreferredParts(
      catalog,
      input.product_type,
      input.store_id,
      input.product_models,
    ),
    created_at: createdAt,
  };
}

/** A local search after a full-settings update (email and text switches have no meaning here). */
export function applySearchUpdate(
  search: LocalSearch,
  update: ParsedSearchUpdate,
  catalog: DesktopCatalog,
): LocalSearch {
  return {
    ...search,
    product_type: update.product_type,
    store_id: update.store_id,
    include_nearby_store_results: update.include_nearby_store_results,
    show_results_only_for_preferred_models: update.show_results_only_for_preferred_models,
    max_distance_miles:
      update.max_distance_miles === undefined
        ? search.max_distance_miles
        : update.max_distance_miles,
    alert_cadence_minutes:
      update.alert_cadence_minutes === undefined
        ? (search.alert_cadence_minutes ?? null)
        : update.alert_cadence_minutes,
    preferred_parts: pickPreferredParts(
      catalog,
      update.product_type,
      update.store_id,
      update.product_models,
    ),
  };
}
