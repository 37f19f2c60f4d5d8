import { z } from 'zod';

/** A product type a search can watch. */
export const productSchema = z.object({
  product_id: z.string(),
  product_name: z.string(),
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
