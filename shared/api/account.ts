import { isValidPhoneNumber } from 'libphonenumber-js';
import { z } from 'zod';
import { PLAN_CODES } from '#shared/domain/plans.ts';
import { isCanonicalTimeZone, parseClockTime } from '#shared/domain/quiet-hours.ts';

/** What the account holder may use, derived from the plan. */
export const accountCapabilitiesSchema = z.object({
  text_notifications_allowed: z.boolean(),
  web_searches_allowed: z.boolean(),
  search_limit: z.number().int(),
});

const clockTimeSchema = z.string().refine((value) => parseClockTime(value) !== undefined, {
  message: 'Enter a time as HH:MM on a 24-hour clock, e.g. 22:00',
});

/**
 * Quiet hours (issue 29): alerts observed between start and end (wall clock in time_zone)
 * wait and go out as one summary when the window ends, except preferred models at a search's
 * own store when always_for_preferred_at_my_store is on. Body of PATCH /v2/account/quiet-hours
 * (always the whole setting).
 */
export const quietHoursSchema = z
  .object({
    enabled: z.boolean(),
    start: clockTimeSchema,
    end: clockTimeSchema,
    time_zone: z.string().trim().max(64).refine(isCanonicalTimeZone, {
      message:
        'Choose a time zone from the list, written as it is there (e.g. America/New_York or UTC); offsets such as +02:00 are not time zones',
    }),
    always_for_preferred_at_my_store: z.boolean(),
  })
  .refine((hours) => hours.start !== hours.end, {
    path: ['end'],
    message: 'The end must differ from the start',
  });
/** An account's quiet hours. */
export type QuietHoursSettings = z.infer<typeof quietHoursSchema>;

/**
 * The zone alert times are written in (issue 42): an IANA name as Intl knows it. The site sets
 * it from the browser when an account has none, and My Account changes it. Body of PATCH
 * /v2/account/time-zone.
 */
export const timeZoneUpdateSchema = z.object({
  time_zone: z.string().trim().min(1, 'Choose a time zone').max(64).refine(isCanonicalTimeZone, {
    message:
      'Choose a time zone from the list, written as it is there (e.g. America/New_York or UTC); offsets such as +02:00 are not time zones',
  }),
});
/** A time zone change. */
export type TimeZoneUpdate = z.infer<typeof timeZoneUpdateSchema>;

/** GET and PATCH /v2/account answer. */
export const accountSchema = z.object({
  email: z.string().nullable(),
  phone_number: z.string().nullable(),
  enable_notifications: z.boolean(),
  plan: z.enum(PLAN_CODES),
  capabilities: accountCapabilitiesSchema,
  quiet_hours: quietHoursSchema,
  /** Zone of the times in alerts; null until the browser first reports one (UTC until then). */
  time_zone: z.string().nullable(),
});
/** The signed-in user's account. */
export type Account = z.infer<typeof accountSchema>;

const emailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'Enter a valid email address' }));

/** Phone numbers are stored as E.164; an empty value clears the number. */
const phoneSchema = z
  .string()
  .trim()
  .max(32)
  .refine((value) => value === '' || isValidPhoneNumber(value), {
    message: 'Enter a valid phone number in international format, e.g. +14155550123',
  })
  .transform((value) => (value === '' ? null : value));

/** PATCH /v2/account body. */
export const accountUpdateSchema = z.object({
  email: z.union([emailSchema, z.literal('').transform(() => null), z.null()]),
  phone_number: z.union([phoneSchema, z.null()]),
  enable_notifications: z.boolean(),
});
/** DELETE /v2/account answer: 204 without a body once everything of the account is gone. */
export const accountDeletionSchema = z.null();

/** Values the account form sends. */
export type AccountUpdate = z.input<typeof accountUpdateSchema>;
/** Account values after validation: email and phone normalised, empty values null. */
export type AccountUpdateValues = z.output<typeof accountUpdateSchema>;
