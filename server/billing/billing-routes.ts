import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  billingWebhookResponseSchema,
  checkoutSessionRequestSchema,
  checkoutSessionResponseSchema,
  portalSessionRequestSchema,
  portalSessionResponseSchema,
  postCheckoutRequestSchema,
  postCheckoutResponseSchema,
} from '#shared/api/billing.ts';
import { ERROR_CODES, errorBodySchema } from '#shared/api/errors.ts';
import type { Billing } from './index.ts';
import { createAddressLimitHook } from '#server/http/rate-limits.ts';
import { AppError } from '#server/base/app-error.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

/** Stripe's events are larger than the API's requests (a subscription with its items). */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * The three billing calls. With Stripe configured they go to `billing`; without it they
 * validate their input and answer 503 `billing_not_configured`, so clients show a clear
 * message. They share a tight limit per address (`checkoutPerMinute`): post_checkout and
 * create-checkout-session are unauthenticated and take identifiers a script could try in turn.
 */
export const billingRoutes: FastifyPluginAsyncZod<{
  checkoutPerMinute: number;
  billing: Billing | null;
}> = async (app, { checkoutPerMinute, billing }) => {
  const limitCheckout = await createAddressLimitHook(app, checkoutPerMinute);
  app.post(
    '/account/post_checkout',
    {
      onRequest: limitCheckout,
      schema: {
        body: postCheckoutRequestSchema,
        response: { 200: postCheckoutResponseSchema, ...errors },
      },
    },
    async (request) => await requireBilling(billing).completeCheckout(request.body.session_id),
  );

  app.post(
    '/account/create-portal-session',
    {
      onRequest: [limitCheckout, app.authenticate],
      schema: {
        body: portalSessionRequestSchema,
        response: { 200: portalSessionResponseSchema, ...errors },
      },
    },
    async (request) => ({
      session_url: await requireBilling(billing).createPortalSession(request.requireUser()),
    }),
  );

  app.post(
    '/account/create-checkout-session',
    {
      onRequest: limitCheckout,
      schema: {
        body: checkoutSessionRequestSchema,
        response: { 200: checkoutSessionResponseSchema, ...errors },
      },
    },
    async (request) => ({
      checkout_url: await requireBilling(billing).createCheckoutSession({
        lookupKey: request.body.lookup_key,
        auth0Id: request.body.auth0_id,
      }),
    }),
  );
};

/**
 * POST /billing/webhook: Stripe's events. The body stays raw bytes (the signature covers
 * them exactly), through a JSON parser registered in this plugin's scope only. No rate
 * limit: Stripe's retries after an outage come in bursts from few addresses, and a forged
 * request costs one HMAC before its 400.
 */
export const billingWebhookRoutes: FastifyPluginAsyncZod<{ billing: Billing | null }> = async (
  app,
  { billing },
) => {
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.post(
    '/billing/webhook',
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: {
        headers: z.object({ 'stripe-signature': z.string().optional() }),
        response: { 200: billingWebhookResponseSchema, 400: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request) => {
      const service = requireBilling(billing);
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      await service.receiveWebhook(rawBody, request.headers['stripe-signature']);
      return { received: true as const };
    },
  );
};

function requireBilling(billing: Billing | null): Billing {
  if (billing === null) {
    throw new AppError(
      503,
      ERROR_CODES.billingNotConfigured,
      'Billing is not configured on this installation yet',
    );
  }
  return billing;
}
