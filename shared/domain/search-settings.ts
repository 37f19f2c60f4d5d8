import type { Search, SearchUpdate } from '#shared/api/searches.ts';
import type { DistanceUnit } from '#shared/upstream/types.ts';
import { fromMiles, toMiles } from './alert-distance.ts';

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
    ...(search.alert_cadence_minutes === undefined
      ? {}
      : { alert_cadence_minutes: search.alert_cadence_minutes }),
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
  | { kind: 'alertCadence'; minutes: number }
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
    case 'alertCadence':
      return { ...update, alert_cadence_minutes: change.minutes };
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
 * Reads the "only stores within N" field, typed in `unit` (the store country's): empty means
 * no limit (null); otherwise a number within MAX_DISTANCE_BOUNDS once in miles, or an error
 * message to show beside the field, in the same unit.
 */
export function parseMaxDistance(
  input: string,
  unit: DistanceUnit = 'mi',
): { miles: number | null } | { error: string } {
  const trimmed = input.trim();
  if (trimmed === '') {
    return { miles: null };
  }
  const value = Number(trimmed);
  const miles = toMiles(value, unit);
  // Bounds are checked on the value as shown (rounded), so "0.8 km" is as accepted as typed.
  const min = fromMiles(MAX_DISTANCE_BOUNDS.min, unit);
  const max = fromMiles(MAX_DISTANCE_BOUNDS.max, unit);
  if (!Number.isFinite(value) || value < min || value > max) {
    const unitName = unit === 'mi' ? 'miles' : 'km';
    return { error: `Enter a distance from ${min} to ${max} ${unitName}, or leave it empty.` };
  }
  return { miles: Math.min(Math.max(miles, MAX_DISTANCE_BOUNDS.min), MAX_DISTANCE_BOUNDS.max) };
}
