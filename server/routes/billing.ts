import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  checkoutSessionRequestSchema,
  checkoutSessionResponseSchema,
  portalSessionRequestSchema,
  portalSessionResponseSchema,
  postCheckoutRequestSchema,
  postCheckoutResponseSchema,
} from '#shared/api/billing.ts';
import { ERROR_CODES, errorBodySchema } from '#shared/api/errors.ts';
import { createAddressLimitHook } from '#server/plugins/rate-limits.ts';
import { AppError } from '#server/services/app-error.ts';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

/**
 * Billing calls with their final contracts. Until a payment provider is configured they
 * validate their input and then answer 503 `billing_not_configured`, so clients can build
 * against the real shapes and show a clear message. They share a tight limit per address
 * (`checkoutPerMinute`): post_checkout and create-checkout-session are unauthenticated and
 * take identifiers a script could try in turn.
 */
export const billingRoutes: FastifyPluginAsyncZod<{ checkoutPerMinute: number }> = async (
  app,
  options,
) => {
  const limitCheckout = await createAddressLimitHook(app, options.checkoutPerMinute);
  app.post(
    '/account/post_checkout',
    {
      onRequest: limitCheckout,
      schema: {
        body: postCheckoutRequestSchema,
        response: { 200: postCheckoutResponseSchema, ...errors },
      },
    },
    () => rejectUnconfiguredBilling(),
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
    () => rejectUnconfiguredBilling(),
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
    () => rejectUnconfiguredBilling(),
  );
};

function rejectUnconfiguredBilling(): never {
  throw new AppError(
    503,
    ERROR_CODES.billingNotConfigured,
    'Billing is not configured on this installation yet',
  );
}
