import { z } from 'zod';
import { findTextProblem, normalizeCatalogText, quoteForMessage } from './catalog-text.ts';

// The fields of a catalog file (catalog-file.ts), each checked for what an import must never
// store: impossible dates, hidden characters, and keys that are names every JavaScript object
// already has (`constructor`, `__proto__`), which a plain object would "find" in any file.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

// "February", for a message about a day that month does not have.
function nameMonth(year: number, month: number): string {
  return new Date(Date.UTC(year, month - 1, 1)).toLocaleString('en', {
    month: 'long',
    timeZone: 'UTC',
  });
}
const SOURCE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
const RESERVED_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** Why a YYYY-MM-DD string is not a day of the calendar, or undefined when it is one. */
export function findDateProblem(text: string): string | undefined {
  const match = DATE.exec(text);
  if (match === null) return 'must be a date written YYYY-MM-DD';
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1970) return `${text} is before 1970`;
  if (month < 1 || month > 12) return `${text} is not a date (there is no month ${month})`;
  // Day 0 of the next month is the last day of this one.
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) {
    return `${text} is not a date (${nameMonth(year, month)} ${year} has ${days} days)`;
  }
  return undefined;
}

/** A date written YYYY-MM-DD that exists (2026-02-31 does not). */
export const catalogDateSchema = z.string().superRefine((text, context) => {
  const problem = findDateProblem(text);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
});

/** A name or description: no hidden characters, stored NFC and trimmed, 1 to `max` long. */
export function buildCatalogTextSchema(options: { max: number; emptyMessage: string }) {
  return z
    .string()
    .superRefine((text, context) => {
      const problem = findTextProblem(text);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    })
    .transform(normalizeCatalogText)
    .pipe(z.string().min(1, options.emptyMessage).max(options.max));
}

/** A key of the file's `sources`: short letters, digits, `.`, `_`, `-`; no reserved name. */
export const sourceKeySchema = z.string().superRefine((key, context) => {
  if (RESERVED_KEYS.has(key)) {
    context.addIssue({
      code: 'custom',
      message: `${quoteForMessage(key)} is a reserved name (every JavaScript object has it); choose another key`,
    });
  } else if (!SOURCE_KEY.test(key)) {
    context.addIssue({
      code: 'custom',
      message: `${quoteForMessage(key)} must be 1 to 40 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    });
  }
});

/** A copy of an object without a prototype: a lookup finds only what the file wrote. */
export function toNullPrototype<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

/**
 * A JSON object of checked keys and values, kept without a prototype. zod's record skips a
 * `__proto__` key without a word, so that key is put to the key schema first: refused, not lost.
 */
export function buildNullPrototypeRecord<K extends z.ZodType<string>, V extends z.ZodType>(
  keySchema: K,
  valueSchema: V,
) {
  return z
    .unknown()
    .superRefine((input, context) => {
      if (typeof input !== 'object' || input === null || !Object.hasOwn(input, '__proto__')) return;
      const checked = keySchema.safeParse('__proto__');
      const messages = checked.success
        ? ['"__proto__" is a reserved name; choose another key']
        : checked.error.issues.map((issue) => issue.message);
      for (const message of messages) {
        context.addIssue({ code: 'custom', path: ['__proto__'], message });
      }
    })
    .pipe(z.record(keySchema, valueSchema))
    .transform(toNullPrototype);
}

/**
 * Reads a catalog file's JSON into objects without a prototype, so a `__proto__` or
 * `constructor` key is a key like any other (and refused as such) rather than a link to
 * Object's own properties.
 */
export function parseCatalogJson(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (Object.setPrototypeOf(value, null) as unknown)
      : value,
  );
}
