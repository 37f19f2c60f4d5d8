import { z } from 'zod';

// The forms environment variables take, shared by the settings modules of this folder so that
// one spelling of "true" or "unset" means the same for every variable.

/** A true/false setting that is off unless set to true (or 1). */
export const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

/** A true/false setting that is on unless set to false (or 0). */
export const defaultOnBoolean = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value !== 'false' && value !== '0');

/** A text setting where an empty value counts as unset. */
export const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value));
