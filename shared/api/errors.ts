import { z } from 'zod';

/** Body of every error answer: a stable machine `reason` and a readable `message`. */
export const errorBodySchema = z.object({
  reason: z.string(),
  message: z.string(),
  field: z.string().optional(),
});

/** An error answer of the API. */
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Reasons the API answers with; clients may branch on them. */
export const ERROR_REASONS = {
  invalidInput: 'invalid_input',
  unauthenticated: 'unauthenticated',
  notFound: 'not_found',
  subscriptionRequired: 'subscription_required',
  searchLimitReached: 'search_limit_reached',
  billingNotConfigured: 'billing_not_configured',
  rateLimited: 'rate_limited',
  loginUnavailable: 'login_unavailable',
  internal: 'internal_error',
} as const;
