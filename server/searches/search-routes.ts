import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '#shared/api/errors.ts';
import { searchInventorySchema } from '#shared/api/inventory.ts';
import {
  newSearchSchema,
  searchListSchema,
  searchParamsSchema,
  searchSchema,
  searchUpdateSchema,
} from '#shared/api/searches.ts';
import type { Db } from '#server/db/database.ts';
import { sendSerializedJson } from '#server/http/json-serializer.ts';
import { createCardCatalog } from '#server/catalog/card-catalog.ts';
import { createSearchInventoryReader } from './inventory-service.ts';
import { getUserSearch } from './search-cards.ts';
import { createSearchListCache } from './search-list-cache.ts';
import {
  createUserSearch,
  deleteUserSearch,
  requireSearchAccess,
  updateUserSearch,
} from './searches-service.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
};

/**
 * preValidation hook of every /searches route: the plan is checked before the input is
 * validated or the search looked up, so a Good-plan account gets one answer for everything.
 */
export async function checkSearchAccess(request: FastifyRequest): Promise<void> {
  requireSearchAccess(request.requireUser());
}

/** The signed-in user's saved searches and their inventory (paid plans only). */
export const searchesRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addHook('preValidation', checkSearchAccess);

  // One catalog in memory for lists (names and models) and inventories (models).
  const catalog = createCardCatalog({
    db,
    onRefreshError: (error) =>
      app.log.warn({ err: error }, 'card catalog refresh failed; keeping the previous one'),
  });
  const searchLists = createSearchListCache({
    db,
    // The cards are composed with exactly the schema's fields, in its order: JSON.stringify
    // writes what the schema's serializer would (a route test holds the two equal) in about
    // three quarters of the time, as one flat string that encodes without flattening first.
    serialize: JSON.stringify,
    catalog,
  });
  app.addHook('onClose', async () => searchLists.close());
  const readSearchInventory = createSearchInventoryReader(db, { productModels: catalog });

  app.get(
    '/searches/my_searches',
    { schema: { response: { 200: searchListSchema, ...errors } } },
    async (request, reply) =>
      sendSerializedJson(reply, await searchLists.read(request.requireUser())),
  );

  app.post(
    '/searches',
    { schema: { body: newSearchSchema, response: { 201: searchSchema, ...errors } } },
    async (request, reply) => {
      const search = await createUserSearch(db, request.requireUser(), request.body);
      return reply.code(201).send(search);
    },
  );

  app.get(
    '/searches/:id',
    { schema: { params: searchParamsSchema, response: { 200: searchSchema, ...errors } } },
    async (request) => getUserSearch(db, request.requireUser(), request.params.id),
  );

  app.patch(
    '/searches/:id',
    {
      schema: {
        params: searchParamsSchema,
        body: searchUpdateSchema,
        response: { 200: searchSchema, ...errors },
      },
    },
    async (request) => updateUserSearch(db, request.requireUser(), request.params.id, request.body),
  );

  app.delete(
    '/searches/:id',
    { schema: { params: searchParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteUserSearch(db, request.requireUser(), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/searches/:id/inventory',
    { schema: { params: searchParamsSchema, response: { 200: searchInventorySchema, ...errors } } },
    async (request) => readSearchInventory(request.requireUser(), request.params.id),
  );
};
