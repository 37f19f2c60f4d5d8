import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { countryListSchema, productListSchema, storeListSchema } from '#shared/api/catalog.ts';
import { exampleInventorySchema } from '#shared/api/inventory.ts';
import type { Db } from '#server/db/database.ts';
import {
  listCountries,
  listProductTypes,
  listStores,
} from '#server/db/repositories/catalog-repository.ts';
import { computeExampleInventory } from '#server/services/inventory-service.ts';

/** Public catalog reads: products, stores, countries and the landing page's example inventory. */
export const catalogRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get('/products', { schema: { response: { 200: productListSchema } } }, async () => {
    const rows = await listProductTypes(db);
    return rows.map(({ product_id, product_name }) => ({ product_id, product_name }));
  });

  app.get('/stores', { schema: { response: { 200: storeListSchema } } }, async () => {
    const rows = await listStores(db);
    return rows.map((row) => ({
      store_id: row.store_id,
      store_name: row.store_name,
      country_locale: row.country_locale,
      city: row.city,
      state_code: row.state_code,
      state_name: row.state_name,
      address1: row.address1,
      address2: row.address2,
      postal_code: row.postal_code,
      telephone: row.telephone,
      store_slug: row.store_slug,
    }));
  });

  app.get(
    '/countries',
    { schema: { response: { 200: countryListSchema } } },
    async () => await listCountries(db),
  );

  app.get(
    '/inventory/example_inventory',
    { schema: { response: { 200: exampleInventorySchema } } },
    async () => await computeExampleInventory(db),
  );
};
