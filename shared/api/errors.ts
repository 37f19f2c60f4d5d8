import { z } from 'zod';

/** Machine codes of error answers (`code`); clients branch on these, never on the sentences. */
export const ERROR_CODES = {
  invalidInput: 'invalid_input',
  unauthenticated: 'unauthenticated',
  notFound: 'not_found',
  subscriptionRequired: 'subscription_required',
  searchLimitReached: 'search_limit_reached',
  billingNotConfigured: 'billing_not_configured',
  rateLimited: 'rate_limited',
  loginUnavailable: 'login_unavailable',
  invalidSignature: 'invalid_signature',
  pushEndpointTaken: 'push_endpoint_taken',
  requestTooLarge: 'request_too_large',
  serviceUnavailable: 'service_unavailable',
  internal: 'internal_error',
} as const;

/** One of the API's error codes. */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/**
 * Body of every error answer: `code` for programs, `reason` a sentence for the person using
 * the product, `message` the detail (what exactly was wrong), `field` the input at fault.
 */
export const errorBodySchema = z.object({
  code: z.string(),
  reason: z.string(),
  message: z.string(),
  field: z.string().optional(),
});

/** An error answer of the API. */
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The sentence shown for each code when the failure has nothing more specific to say. */
export const ERROR_REASON_TEXTS: Readonly<Record<ErrorCode, string>> = {
  invalid_input: "Some of the information sent isn't valid. Please check it and try again.",
  unauthenticated: 'Please log in to continue.',
  not_found: "We couldn't find what you asked for. It may have been deleted.",
  subscription_required: 'This needs a paid plan. See the Pricing page to upgrade.',
  search_limit_reached:
    "You've reached your plan's search limit. Delete a search or upgrade your plan to add more.",
  billing_not_configured: "Subscriptions aren't set up on this Shelfwatch installation yet.",
  rate_limited: "You're sending requests too quickly. Please wait a moment and try again.",
  login_unavailable: 'Signing in is unavailable right now. Please try again in a few minutes.',
  invalid_signature: "This request's signature couldn't be verified, so it was refused.",
  push_endpoint_taken:
    'This browser already gets notifications for another account. Turn them off there, or try again to set up new ones here.',
  request_too_large: 'This request was too large to read. Please reload the page and try again.',
  service_unavailable:
    'Shelfwatch is restarting part of its service. Please try again in a few seconds.',
  internal_error: 'Something went wrong on our side. Please try again in a moment.',
};

/** The general sentence of a code, undefined for codes this catalogue does not know. */
export function describeErrorCode(code: string): string | undefined {
  return Object.hasOwn(ERROR_REASON_TEXTS, code)
    ? ERROR_REASON_TEXTS[code as ErrorCode]
    : undefined;
}

/**
 * Builds an error body. Without a `reason` of its own, the code's general sentence is used,
 * and for a code outside the catalogue the message (callers write those as sentences).
 */
export function buildErrorBody(
  code: string,
  message: string,
  options: { reason?: string; field?: string } = {},
): ErrorBody {
  const reason = options.reason ?? describeErrorCode(code) ?? message;
  return options.field === undefined
    ? { code, reason, message }
    : { code, reason, message, field: options.field };
}
