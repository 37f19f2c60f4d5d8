import formBody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, errorBodySchema } from '#shared/api/errors.ts';
import {
  pushPublicKeySchema,
  pushSubscriptionDeleteSchema,
  pushSubscriptionInputSchema,
  pushSubscriptionSchema,
  twilioInboundSchema,
  unsubscribeBodySchema,
  unsubscribeQuerySchema,
  unsubscribeResultSchema,
} from '#shared/api/notifications.ts';
import type { Db } from '#server/db/database.ts';
import { loadOnFirstUse } from '#server/base/load-on-first-use.ts';
import {
  deleteUserPushSubscription,
  disableSearchEmailUpdates,
  findSearchEmailState,
  setTextOptOutByPhone,
  upsertPushSubscription,
} from '#server/db/repositories/notify-repository.ts';
import { loadOrCreateNotifySecrets } from './secrets.ts';
import {
  renderInvalidLinkPage,
  renderUnsubscribeConfirmPage,
  renderUnsubscribedPage,
} from './unsubscribe-pages.ts';
import { verifyUnsubscribeToken } from './unsubscribe-token.ts';
import { AppError, invalidInput, notFound } from '#server/base/app-error.ts';

/** Twilio's default opt-out and opt-in keywords (the whole message, any case). */
const OPT_OUT_KEYWORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const OPT_IN_KEYWORDS = new Set(['START', 'UNSTOP', 'YES']);

/** The Twilio SDK (with axios and more, ~95 ms) loads with the first inbound text, not at start. */
const loadTwilio = loadOnFirstUse(async () => (await import('twilio')).default);

/** Reason answered for an unsigned, forged or unverifiable webhook. */
const INVALID_SIGNATURE = 'invalid_signature';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
};

/** Options of the public notification routes. */
export type NotificationsPublicOptions = {
  db: Db;
  /** The site's public origin, for rebuilding the URL Twilio signed; else taken from the request. */
  publicUrl?: string;
  /** TWILIO_AUTH_TOKEN; without it inbound webhooks are refused. */
  twilioAuthToken?: string;
};

/** Public: the VAPID key, the email unsubscribe link and Twilio's inbound SMS webhook. */
export const notificationsPublicRoutes: FastifyPluginAsyncZod<NotificationsPublicOptions> = async (
  app,
  options,
) => {
  const { db } = options;
  const secrets = await loadOrCreateNotifySecrets(db);
  // Both mail clients (RFC 8058) and Twilio post application/x-www-form-urlencoded.
  await app.register(formBody);

  app.get(
    '/notifications/push/public-key',
    { schema: { response: { 200: pushPublicKeySchema } } },
    () => ({
      public_key: secrets.vapid.publicKey,
    }),
  );

  const wantsHtml = (request: FastifyRequest): boolean =>
    (request.headers.accept ?? '').includes('text/html');
  const rejectToken = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (request.method === 'GET' || wantsHtml(request)) {
      return reply.code(400).type('text/html; charset=utf-8').send(renderInvalidLinkPage());
    }
    throw invalidInput('token', 'This unsubscribe link is not valid (malformed or altered token)');
  };

  app.get(
    '/notifications/unsubscribe',
    { schema: { querystring: unsubscribeQuerySchema } },
    async (request, reply) => {
      const searchId = verifyUnsubscribeToken(secrets.unsubscribeKey, request.query.token);
      if (searchId === undefined) {
        return rejectToken(request, reply);
      }
      const state = await findSearchEmailState(db, searchId);
      if (state === undefined) {
        return reply.type('text/html; charset=utf-8').send(renderUnsubscribedPage(false));
      }
      const action = `${request.url.split('?')[0]}?token=${encodeURIComponent(request.query.token)}`;
      return reply
        .type('text/html; charset=utf-8')
        .send(renderUnsubscribeConfirmPage(action, !state.isEmailOn));
    },
  );

  app.post(
    '/notifications/unsubscribe',
    {
      schema: {
        querystring: unsubscribeQuerySchema,
        body: unsubscribeBodySchema,
        response: { 200: unsubscribeResultSchema.or(z.string()), ...errors },
      },
    },
    async (request, reply) => {
      const searchId = verifyUnsubscribeToken(secrets.unsubscribeKey, request.query.token);
      if (searchId === undefined) {
        return rejectToken(request, reply);
      }
      const isFound = await disableSearchEmailUpdates(db, searchId);
      request.log.info({ searchId, isFound }, 'email alerts unsubscribed by link');
      if (wantsHtml(request)) {
        return reply.type('text/html; charset=utf-8').send(renderUnsubscribedPage(isFound));
      }
      return { search_id: searchId, send_email_updates: false as const };
    },
  );

  app.post('/notifications/twilio/inbound', async (request, reply) => {
    if (options.twilioAuthToken === undefined) {
      throw new AppError(
        403,
        INVALID_SIGNATURE,
        'Inbound texts are not accepted: TWILIO_AUTH_TOKEN is not configured',
      );
    }
    const twilio = await loadTwilio();
    const signature = request.headers['x-twilio-signature'];
    const params =
      typeof request.body === 'object' && request.body !== null
        ? (request.body as Record<string, unknown>)
        : {};
    const url = `${options.publicUrl ?? `${request.protocol}://${request.host}`}${request.url}`;
    if (
      typeof signature !== 'string' ||
      !twilio.validateRequest(options.twilioAuthToken, signature, url, params)
    ) {
      throw new AppError(403, INVALID_SIGNATURE, 'X-Twilio-Signature does not match this request');
    }
    const inbound = twilioInboundSchema.safeParse(params);
    if (!inbound.success) {
      const issue = inbound.error.issues[0];
      throw invalidInput(String(issue?.path[0] ?? 'body'), issue?.message ?? 'Invalid input');
    }
    const keyword = inbound.data.Body.trim().toUpperCase();
    const response = new twilio.twiml.MessagingResponse();
    if (OPT_OUT_KEYWORDS.has(keyword)) {
      // Twilio itself confirms a STOP and blocks further sends; a reply here would be dropped.
      const count = await setTextOptOutByPhone(db, inbound.data.From, true);
      request.log.info({ count }, 'text alerts opted out by STOP');
    } else if (OPT_IN_KEYWORDS.has(keyword)) {
      await setTextOptOutByPhone(db, inbound.data.From, false);
      response.message('Shelfwatch: text alerts are back on. Reply STOP to opt out.');
    } else if (keyword === 'HELP' || keyword === 'INFO') {
      response.message(
        'Shelfwatch stock alerts. Manage them in your account on the website. Reply STOP to opt out.',
      );
    }
    return reply.type('text/xml').send(response.toString());
  });
};

/** Signed in: the user's own web push subscriptions. */
export const pushSubscriptionRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/notifications/push/subscriptions',
    {
      schema: {
        body: pushSubscriptionInputSchema,
        response: { 201: pushSubscriptionSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const row = await upsertPushSubscription(db, request.requireUser().id, request.body);
      if (row === undefined) {
        // Taking it over would send this user's alerts to someone else's browser, and theirs
        // no longer to them; the browser makes a new endpoint when subscribed again.
        throw new AppError(
          409,
          ERROR_CODES.pushEndpointTaken,
          'This push endpoint is registered to another account',
          { field: 'endpoint' },
        );
      }
      return reply
        .code(201)
        .send({ id: row.id, endpoint: row.endpoint, created_at: row.created_at.toISOString() });
    },
  );

  app.delete(
    '/notifications/push/subscriptions',
    { schema: { body: pushSubscriptionDeleteSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      const isDeleted = await deleteUserPushSubscription(
        db,
        request.requireUser().id,
        request.body.endpoint,
      );
      if (!isDeleted) {
        throw notFound('Push subscription');
      }
      return reply.code(204).send(null);
    },
  );
};
