import { z } from 'zod';

/** A product type a search can watch. */
export const productSchema = z.object({
  product_id: z.string(),
  product_name: z.string(),
  /**
   * Countries (two-letter codes) where it is sold: a type retired in a country, or with no
   * part numbers known there, is not offered for new searches at that country's stores.
   */
  sold_in: z.array(z.string()),
});
/** A product type. */
export type Product = z.infer<typeof productSchema>;

/** An Apple retail store as the server sends it. */
export const storeSchema = z.object({
  store_id: z.string(),
  store_name: z.string(),
  country_locale: z.string(),
  city: z.string(),
  state_code: z.string().nullable(),
  state_name: z.string().nullable(),
  address1: z.string(),
  address2: z.string().nullable(),
  postal_code: z.string().nullable(),
  telephone: z.string().nullable(),
  store_slug: z.string().nullable(),
  /**
   * YYYY-MM-DD since which Apple's directory no longer lists it: kept for the searches that
   * watch it, not offered for new ones. Null (or absent, from an older server) while open.
   */
  closed_on: z.string().nullable().optional(),
});
/** A store, server field names. */
export type Store = z.infer<typeof storeSchema>;

/** A country with its store-directory locale. */
export const countrySchema = z.object({
  country_code: z.string(),
  locale_code: z.string(),
  display_name: z.string(),
});
/** A country. */
export type Country = z.infer<typeof countrySchema>;

/** GET /v2/products */
export const productListSchema = z.array(productSchema);
/** GET /v2/stores */
export const storeListSchema = z.array(storeSchema);
/** GET /v2/countries */
export const countryListSchema = z.array(countrySchema);

/** What one catalog change did: up to 20 names per kind, with the full counts. */
export const catalogChangeCountsSchema = z.object({
  types_added: z.array(z.string()),
  types_retired: z.array(z.string()),
  parts_added: z.array(z.string()),
  parts_retired: z.array(z.string()),
  parts_returned: z.array(z.string()),
  parts_changed: z.array(z.string()),
  /** Full counts, for when the lists above were cut short. */
  counts: z.object({
    types_added: z.number().int(),
    types_retired: z.number().int(),
    parts_added: z.number().int(),
    parts_retired: z.number().int(),
    parts_returned: z.number().int(),
    parts_changed: z.number().int(),
  }),
});

/** The last sync of the models from Apple's buy pages (part of GET /v2/status). */
export const catalogSyncStatusSchema = z.object({
  /** When the last sync ran (ISO time), whether it worked, and where it read from. */
  synced_at: z.string(),
  is_ok: z.boolean(),
  origin: z.string(),
  /** Why it failed (nothing was changed); null after a sync that worked. */
  error: z.string().nullable(),
  /** Buy pages the last sync could not read, each with why (the pages it read still applied). */
  page_problems: z.array(z.string()),
  /** Buy pages the last sync retired because they redirect away; they are no longer read. */
  pages_retired: z.array(z.string()),
  /** What the last sync that worked changed; null when none has. */
  last_success_at: z.string().nullable(),
  changes: catalogChangeCountsSchema.nullable(),
});
/** The last buy-page sync. */
export type CatalogSyncStatus = z.infer<typeof catalogSyncStatusSchema>;
