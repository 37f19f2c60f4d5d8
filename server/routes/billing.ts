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
import { AppError } from '#server/services/app-error.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 503: errorBodySchema };

/**
 * Billing calls with their final contracts. Until a payment provider is configured they
 * validate their input and then answer 503 `billing_not_configured`, so clients can build
 * against the real shapes and show a clear message.
 */
export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/account/post_checkout',
    {
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
      onRequest: app.authenticate,
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
