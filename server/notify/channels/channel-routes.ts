import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CHANNEL_TEST_LIMITS,
  channelCreatedSchema,
  channelCreateSchema,
  channelListSchema,
  channelParamsSchema,
  channelTestResultSchema,
  searchChannelsSchema,
  searchChannelsUpdateSchema,
} from '#shared/api/channels.ts';
import { errorBodySchema } from '#shared/api/errors.ts';
import { searchParamsSchema } from '#shared/api/searches.ts';
import type { Db } from '#server/db/database.ts';
import type { ChannelSettings } from '#server/config/notify-settings.ts';
import { createWindowLimiter, enforceLimit } from '#server/http/rate-limits.ts';
import { createChannelDispatcher, DEFAULT_CHANNEL_SETTINGS } from './channel-dispatch.ts';
import {
  createChannel,
  listChannels,
  listSearchChannels,
  removeChannel,
  requireChannelAccess,
  saveSearchChannels,
  testChannel,
} from './channels-service.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
};

/** Options of the channel routes: settings from the environment and where links point. */
export type ChannelRoutesOptions = {
  db: Db;
  settings?: ChannelSettings;
  publicUrl: string;
  storePageBaseUrl: string;
  /** Tests allowed per channel a minute and per account an hour (default CHANNEL_TEST_LIMITS). */
  testLimits?: { perChannelPerMinute: number; perUserPerHour: number };
};

/** The plan is checked before input is validated, so a free account gets one answer for all. */
async function checkChannelAccess(request: FastifyRequest): Promise<void> {
  requireChannelAccess(request.requireUser());
}

/**
 * The limits of test messages: per channel a minute, then per user an hour, counted once the
 * channel is known to be the user's. The channel's count comes first, so repeating one
 * channel's test does not spend the hour's tests of the others.
 */
async function createTestLimits(
  app: FastifyInstance,
  limits: NonNullable<ChannelRoutesOptions['testLimits']>,
): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<void>> {
  const { perChannelPerMinute, perUserPerHour } = limits;
  const userKey = (request: FastifyRequest): string => `channel-tests:${request.requireUser().id}`;
  const perChannel = await createWindowLimiter(
    app,
    { max: perChannelPerMinute, windowMs: 60_000 },
    (request) => `${userKey(request)}:${(request.params as { id: string }).id}`,
  );
  const perUser = await createWindowLimiter(
    app,
    { max: perUserPerHour, windowMs: 3_600_000 },
    userKey,
  );
  return async (request, reply) => {
    await enforceLimit(
      perChannel,
      request,
      reply,
      (seconds) =>
        `A channel can be tested ${perChannelPerMinute} times a minute. Try again in ${seconds} s.`,
    );
    await enforceLimit(
      perUser,
      request,
      reply,
      (seconds) =>
        `An account can send ${perUserPerHour} test messages an hour. Try again in ${Math.ceil(seconds / 60)} min.`,
    );
  };
}

/** /v2/account/channels (the user's ntfy, Discord, Telegram and webhook channels) and per-search use. */
export const channelsRoutes: FastifyPluginAsyncZod<ChannelRoutesOptions> = async (app, options) => {
  const { db } = options;
  const settings = options.settings ?? DEFAULT_CHANNEL_SETTINGS;
  const policy = { allowPrivateTargets: settings.allowPrivateTargets };
  const dispatcher = createChannelDispatcher(settings, {
    publicUrl: options.publicUrl,
    storePageBaseUrl: options.storePageBaseUrl,
  });
  app.addHook('onClose', async () => dispatcher.close());
  app.addHook('preValidation', checkChannelAccess);
  const admitTest = await createTestLimits(app, options.testLimits ?? CHANNEL_TEST_LIMITS);

  app.get(
    '/account/channels',
    { schema: { response: { 200: channelListSchema, ...errors } } },
    async (request) => ({ channels: await listChannels(db, request.requireUser()) }),
  );

  app.post(
    '/account/channels',
    {
      schema: { body: channelCreateSchema, response: { 201: channelCreatedSchema, ...errors } },
    },
    async (request, reply) => {
      const created = await createChannel(db, request.requireUser(), request.body, policy);
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/account/channels/:id',
    { schema: { params: channelParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await removeChannel(db, request.requireUser(), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/account/channels/:id/test',
    {
      schema: {
        params: channelParamsSchema,
        response: { 200: channelTestResultSchema, ...errors },
      },
    },
    async (request, reply) =>
      await testChannel(db, request.requireUser(), request.params.id, dispatcher, {
        admit: () => admitTest(request, reply),
        warn: (message) => request.log.warn(message),
      }),
  );

  app.get(
    '/searches/:id/channels',
    { schema: { params: searchParamsSchema, response: { 200: searchChannelsSchema, ...errors } } },
    async (request) => await listSearchChannels(db, request.requireUser(), request.params.id),
  );

  app.patch(
    '/searches/:id/channels',
    {
      schema: {
        params: searchParamsSchema,
        body: searchChannelsUpdateSchema,
        response: { 200: searchChannelsSchema, ...errors },
      },
    },
    async (request) =>
      await saveSearchChannels(
        db,
        request.requireUser(),
        request.params.id,
        request.body.channel_ids,
      ),
  );
};
