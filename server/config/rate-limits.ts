import { z } from 'zod';
import { CHANNEL_TEST_LIMITS } from '#shared/api/channels.ts';

/** Requests allowed per minute by the API's limits (see server/http/rate-limits.ts). */
export type RateLimitSettings = {
  /** Public /v2 routes, per client address. */
  perAddressPerMinute: number;
  /** Signed-in routes, per user. */
  perUserPerMinute: number;
  /** Signed-in POST, PATCH and DELETE, per user, on top of the per-user limit. */
  userWritesPerMinute: number;
  /** Checkout calls (unauthenticated), per client address. */
  checkoutPerAddressPerMinute: number;
  /** Answers of 401 per client address before it is refused outright until the minute ends. */
  authFailuresPerAddressPerMinute: number;
  /** Test messages of one channel a minute (CHANNEL_TEST_LIMITS; not an environment setting). */
  channelTestsPerChannelPerMinute: number;
  /** Test messages of one account an hour, across its channels. */
  channelTestsPerUserPerHour: number;
};

/**
 * Reads in a signed-in page come in bursts (the search list, then each search's inventory),
 * so the per-user limit is higher than the per-address one of the public catalog.
 */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  perAddressPerMinute: 300,
  perUserPerMinute: 600,
  userWritesPerMinute: 60,
  checkoutPerAddressPerMinute: 10,
  authFailuresPerAddressPerMinute: 20,
  channelTestsPerChannelPerMinute: CHANNEL_TEST_LIMITS.perChannelPerMinute,
  channelTestsPerUserPerHour: CHANNEL_TEST_LIMITS.perUserPerHour,
};

/** Sign-in form posts allowed per minute at the embedded login provider. */
export type LoginLimitSettings = {
  /** Across emails, against password spraying. */
  perAddressPerMinute: number;
  /** For one email, against guessing one account's password. */
  perAddressAndEmailPerMinute: number;
};

/** Default sign-in limits. */
export const DEFAULT_LOGIN_LIMITS: LoginLimitSettings = {
  perAddressPerMinute: 30,
  perAddressAndEmailPerMinute: 10,
};

function perMinute(defaultValue: number) {
  return z.coerce.number().int().min(1).default(defaultValue);
}

/** The limits' variables; each one left unset keeps its default. */
export const rateLimitEnvironmentSchema = z.object({
  RATE_LIMIT_PER_MINUTE: perMinute(DEFAULT_RATE_LIMITS.perAddressPerMinute),
  USER_RATE_LIMIT_PER_MINUTE: perMinute(DEFAULT_RATE_LIMITS.perUserPerMinute),
  USER_WRITE_RATE_LIMIT_PER_MINUTE: perMinute(DEFAULT_RATE_LIMITS.userWritesPerMinute),
  AUTH_FAILURES_PER_MINUTE: perMinute(DEFAULT_RATE_LIMITS.authFailuresPerAddressPerMinute),
  LOGIN_RATE_LIMIT_PER_MINUTE: perMinute(DEFAULT_LOGIN_LIMITS.perAddressPerMinute),
});

type RateLimitValues = z.output<typeof rateLimitEnvironmentSchema>;

/** The API's limits from the validated environment. */
export function readRateLimits(values: RateLimitValues): RateLimitSettings {
  return {
    ...DEFAULT_RATE_LIMITS,
    perAddressPerMinute: values.RATE_LIMIT_PER_MINUTE,
    perUserPerMinute: values.USER_RATE_LIMIT_PER_MINUTE,
    userWritesPerMinute: values.USER_WRITE_RATE_LIMIT_PER_MINUTE,
    authFailuresPerAddressPerMinute: values.AUTH_FAILURES_PER_MINUTE,
  };
}

/** The sign-in limits from the validated environment. */
export function readLoginLimits(values: RateLimitValues): LoginLimitSettings {
  return {
    ...DEFAULT_LOGIN_LIMITS,
    perAddressPerMinute: values.LOGIN_RATE_LIMIT_PER_MINUTE,
  };
}
