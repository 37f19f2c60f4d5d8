import { z } from 'zod';
import { ALERT_CADENCE_BOUNDS } from '#shared/watch/alert-cadence.ts';

/** A model of the search's product type, flagged when the user prefers it. */
export const productModelSchema = z.object({
  part_number: z.string(),
  display_name: z.string(),
  is_preferred: z.boolean(),
});
/** A model row of a search. */
export type ProductModel = z.infer<typeof productModelSchema>;

/** A saved search as the API returns it. */
export const searchSchema = z.object({
  search_id: z.string(),
  id: z.string(),
  product_type: z.string(),
  product_name: z.string(),
  store_id: z.string(),
  store_name: z.string(),
  store_city: z.string(),
  store_state: z.string().nullable(),
  include_nearby_store_results: z.boolean(),
  show_results_only_for_preferred_models: z.boolean(),
  send_text_updates: z.boolean(),
  send_email_updates: z.boolean(),
  max_distance_miles: z.number().nullable(),
  /** Unit the store's country reads distances in; the limit is still sent in miles. */
  distance_unit: z.enum(['mi', 'km']).optional(),
  /** At most one alert message per channel (on the Mac: one notification) within this many minutes. */
  alert_cadence_minutes: z.number().int().optional(),
  product_models: z.array(productModelSchema),
  stores_with_inventory: z.number().int().nullable(),
  /** Over the plan's search limit after a downgrade: kept, but not checked and never alerted. */
  is_paused: z.boolean().optional(),
});
/** A saved search. */
export type Search = z.infer<typeof searchSchema>;

/** GET /v2/searches/my_searches */
export const searchListSchema = z.array(searchSchema);

const idSchema = z.string().trim().min(1, 'Required').max(64);

/** Limit on how far a nearby store may be, in miles (0.5 to 500). */
export const maxDistanceSchema = z.number().min(0.5).max(500).nullable();

/** Minutes between two alert messages of a search per channel (0: every restock at once). */
export const alertCadenceSchema = z
  .number({ message: 'Enter the minutes between alert messages as a number' })
  .int({ message: 'Enter whole minutes between alert messages' })
  .min(ALERT_CADENCE_BOUNDS.min, {
    message: `Enter from ${ALERT_CADENCE_BOUNDS.min} to ${ALERT_CADENCE_BOUNDS.max} minutes between alert messages`,
  })
  .max(ALERT_CADENCE_BOUNDS.max, {
    message: `Enter from ${ALERT_CADENCE_BOUNDS.min} to ${ALERT_CADENCE_BOUNDS.max} minutes between alert messages`,
  });

/** Settings shared by create and update; every flag is optional on create. */
const settingsShape = {
  include_nearby_store_results: z.boolean(),
  show_results_only_for_preferred_models: z.boolean(),
  send_text_updates: z.boolean(),
  send_email_updates: z.boolean(),
  max_distance_miles: maxDistanceSchema,
};

/** Preferred-model choice as sent by clients: the list of models with their flags. */
const preferredModelsInput = z
  .array(
    z.object({
      part_number: z.string().trim().min(1).max(32),
      display_name: z.string().optional(),
      is_preferred: z.boolean(),
    }),
  )
  .max(200);

/** POST /v2/searches body: product and store required, the rest defaulted. */
export const newSearchSchema = z.object({
  product_type: idSchema,
  store_id: idSchema,
  include_nearby_store_results: settingsShape.include_nearby_store_results.optional(),
  show_results_only_for_preferred_models:
    settingsShape.show_results_only_for_preferred_models.optional(),
  send_text_updates: settingsShape.send_text_updates.optional(),
  send_email_updates: settingsShape.send_email_updates.optional(),
  max_distance_miles: settingsShape.max_distance_miles.optional(),
  alert_cadence_minutes: alertCadenceSchema.optional(),
  product_models: preferredModelsInput.optional(),
});
/** Create-search payload. */
export type NewSearch = z.input<typeof newSearchSchema>;

/**
 * PATCH /v2/searches/{id} body: the full settings. Extra fields of a Search (names, counts)
 * are accepted and ignored so a client can send back what it read.
 */
export const searchUpdateSchema = z.object({
  product_type: idSchema,
  store_id: idSchema,
  ...settingsShape,
  max_distance_miles: maxDistanceSchema.optional(),
  alert_cadence_minutes: alertCadenceSchema.optional(),
  product_models: preferredModelsInput,
});
/** Update-search payload. */
export type SearchUpdate = z.input<typeof searchUpdateSchema>;

/** Path parameters naming one search. */
export const searchParamsSchema = z.object({ id: z.string().uuid({ message: 'Not a search id' }) });
