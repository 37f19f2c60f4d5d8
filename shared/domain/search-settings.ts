import type { Search, SearchUpdate } from '#shared/api/searches.ts';

/** Nearest and farthest "only stores within N miles" the API accepts (maxDistanceSchema). */
export const MAX_DISTANCE_BOUNDS = { min: 0.5, max: 500 } as const;

/** The full settings body PATCH /v2/searches/{id} expects, read from a loaded search. */
export function toSearchUpdate(search: Search): SearchUpdate {
  return {
    product_type: search.product_type,
    store_id: search.store_id,
    include_nearby_store_results: search.include_nearby_store_results,
    show_results_only_for_preferred_models: search.show_results_only_for_preferred_models,
    send_text_updates: search.send_text_updates,
    send_email_updates: search.send_email_updates,
    max_distance_miles: search.max_distance_miles,
    product_models: search.product_models.map((model) => ({
      part_number: model.part_number,
      display_name: model.display_name,
      is_preferred: model.is_preferred,
    })),
  };
}

/** One change made with a settings control. */
export type SettingChange =
  | { kind: 'productType'; productType: string }
  | { kind: 'store'; storeId: string }
  | {
      kind: 'flag';
      field:
        | 'include_nearby_store_results'
        | 'show_results_only_for_preferred_models'
        | 'send_text_updates'
        | 'send_email_updates';
      value: boolean;
    }
  | { kind: 'maxDistance'; miles: number | null }
  | { kind: 'preferredModels'; partNumbers: readonly string[] };

/**
 * The full settings after one change. A new product type drops the old type's models (they
 * can't be preferred for another product); the server answers with the new type's models.
 */
export function applySettingChange(search: Search, change: SettingChange): SearchUpdate {
  const update = toSearchUpdate(search);
  switch (change.kind) {
    case 'productType':
      return change.productType === search.product_type
        ? update
        : { ...update, product_type: change.productType, product_models: [] };
    case 'store':
      return { ...update, store_id: change.storeId };
    case 'flag':
      return { ...update, [change.field]: change.value };
    case 'maxDistance':
      return { ...update, max_distance_miles: change.miles };
    case 'preferredModels': {
      const preferred = new Set(change.partNumbers);
      return {
        ...update,
        product_models: update.product_models.map((model) => ({
          ...model,
          is_preferred: preferred.has(model.part_number),
        })),
      };
    }
  }
}

/** True when text or email alerts are on but no model is preferred, so nothing would be sent. */
export function isMissingPreferredModel(
  search: Pick<Search, 'send_text_updates' | 'send_email_updates' | 'product_models'>,
): boolean {
  return (
    (search.send_text_updates || search.send_email_updates) &&
    !search.product_models.some((model) => model.is_preferred)
  );
}

/**
 * Reads the "only stores within N miles" field: empty means no limit (null); otherwise a
 * number within MAX_DISTANCE_BOUNDS, or an error message to show beside the field.
 */
export function parseMaxDistance(input: string): { miles: number | null } | { error: string } {
  const trimmed = input.trim();
  if (trimmed === '') {
    return { miles: null };
  }
  const miles = Number(trimmed);
  if (
    !Number.isFinite(miles) ||
    miles < MAX_DISTANCE_BOUNDS.min ||
    miles > MAX_DISTANCE_BOUNDS.max
  ) {
    return {
      error: `Enter a distance from ${MAX_DISTANCE_BOUNDS.min} to ${MAX_DISTANCE_BOUNDS.max} miles, or leave it empty.`,
    };
  }
  return { miles };
}
