import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { countryListSchema, productListSchema, storeListSchema } from '#shared/api/catalog.ts';
import { exampleInventorySchema } from '#shared/api/inventory.ts';
import type { Db } from '#server/db/database.ts';
import { listCountries, listStores } from '#server/db/repositories/catalog-repository.ts';
import { listCurrentProductTypes } from '#server/db/repositories/catalog-changes-repository.ts';
import { compileResponseSerializer, sendSerializedJson } from '#server/http/json-serializer.ts';
import { createCachedBody, isEtagMatch, type CachedBodySource } from './catalog-cache.ts';
import { computeExampleInventory } from './example-inventory.ts';

/**
 * Products, stores and countries change with a deploy's seed or a store import: in this
 * process those mark the cache stale at once; another process's import is seen within a
 * minute, which is also how long browsers and proxies may reuse an answer unasked.
 */
const CATALOG_MAX_AGE_SECONDS = 60;
/**
 * The example inventory follows the watcher's snapshots, written all the time (and possibly
 * by other processes): it is recomputed every 15 s rather than on each write, so the landing
 * page's counts are at most that old.
 */
const EXAMPLE_INVENTORY_MAX_AGE_SECONDS = 15;

/** A cached body of a route, serialised once with the route's own response schema. */
function cacheReply<Schema extends z.ZodType>(
  log: FastifyBaseLogger,
  schema: Schema,
  load: () => Promise<z.output<Schema>>,
  maxAgeSeconds: number,
): { source: CachedBodySource; cacheControl: string } {
  const serialize = compileResponseSerializer(schema);
  return {
    source: createCachedBody({
      load,
      serialize,
      maxAgeMs: maxAgeSeconds * 1000,
      onRefreshError: (error) =>
        log.warn({ err: error }, 'catalog refresh failed; serving the previous answer'),
    }),
    cacheControl: `public, max-age=${maxAgeSeconds}, must-revalidate`,
  };
}

/** Answers from memory: 304 when the client already holds this body, else the body itself. */
async function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  cached: { source: CachedBodySource; cacheControl: string },
): Promise<FastifyReply> {
  const { body, etag } = await cached.source.read();
  reply.header('etag', etag).header('cache-control', cached.cacheControl);
  if (isEtagMatch(request.headers['if-none-match'], etag)) {
    return reply.code(304).send();
  }
  return sendSerializedJson(reply, body);
}

/**
 * Public catalog reads: products, stores, countries and the landing page's example inventory,
 * served from memory with a strong ETag (answering 304 to a matching If-None-Match) and a
 * public Cache-Control.
 */
export const catalogRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const products = cacheReply(
    app.log,
    productListSchema,
    // Retired types (sold nowhere) stay in the catalog for the searches that watch them, but
    // are not offered for new ones; newest launches come first (the catalog file's order).
    async () => await listCurrentProductTypes(db),
    CATALOG_MAX_AGE_SECONDS,
  );
  const stores = cacheReply(
    app.log,
    storeListSchema,
    async () => {
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
        closed_on: row.closed_on,
      }));
    },
    CATALOG_MAX_AGE_SECONDS,
  );
  const countries = cacheReply(
    app.log,
    countryListSchema,
    async () => await listCountries(db),
    CATALOG_MAX_AGE_SECONDS,
  );
  const exampleInventory = cacheReply(
    app.log,
    exampleInventorySchema,
    async () => await computeExampleInventory(db),
    EXAMPLE_INVENTORY_MAX_AGE_SECONDS,
  );

  app.get(
    '/products',
    { schema: { response: { 200: productListSchema } } },
    async (request, reply) => sendCached(request, reply, products),
  );

  app.get('/stores', { schema: { response: { 200: storeListSchema } } }, async (request, reply) =>
    sendCached(request, reply, stores),
  );

  app.get(
    '/countries',
    { schema: { response: { 200: countryListSchema } } },
    async (request, reply) => sendCached(request, reply, countries),
  );

  app.get(
    '/inventory/example_inventory',
    { schema: { response: { 200: exampleInventorySchema } } },
    async (request, reply) => sendCached(request, reply, exampleInventory),
  );
};
