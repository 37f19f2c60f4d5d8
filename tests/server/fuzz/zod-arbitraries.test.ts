import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as api from '#shared/api/index.ts';
import {
  type ArbitraryOptions,
  mutatedInputArbitrary,
  mutateInput,
  structuralInputArbitrary,
  validInputArbitrary,
} from '#tests/helpers/zod-arbitraries.ts';
import { FUZZ_SEED } from './fuzz-support.ts';

const SAMPLES = 200;
const API_SCHEMAS = Object.entries(api).flatMap(([name, value]): [string, z.ZodType][] =>
  value instanceof z.ZodType ? [[name, value]] : [],
);

/**
 * Paths whose rules only a refinement states (quiet hours' clock times and time zone), per
 * schema: random strings would almost never pass, and filtering for valid ones would not end.
 */
const QUIET_HOURS = {
  start: fc.constantFrom('22:00', '00:00', '07:30'),
  end: fc.constantFrom('07:00', '23:59'),
  time_zone: fc.constantFrom('America/New_York', 'Europe/London', 'UTC'),
};
const REFINED_PATHS: Readonly<Record<string, ArbitraryOptions['overrides']>> = {
  quietHoursSchema: QUIET_HOURS,
  timeZoneUpdateSchema: { time_zone: QUIET_HOURS.time_zone },
  // URLs are checked by parsing (Discord's by its path), not by a structure.
  channelCreateSchema: {
    url: fc.constantFrom(
      'https://discord.com/api/webhooks/1234567890/abc-DEF_123',
      'https://hooks.example.com/shelfwatch',
    ),
    server_url: fc.constantFrom('https://ntfy.sh', 'https://ntfy.example.com'),
  },
  accountSchema: Object.fromEntries(
    Object.entries(QUIET_HOURS).map(([key, value]) => [`quiet_hours.${key}`, value]),
  ),
};

function shareAccepted(schema: z.ZodType, values: unknown[]): number {
  return values.filter((value) => schema.safeParse(value).success).length / values.length;
}

describe('deriving fast-check arbitraries from the shared/api zod schemas', () => {
  it('covers every schema the API contract exports', () => {
    expect(API_SCHEMAS.length).toBeGreaterThan(30);
  });

  it.each(API_SCHEMAS)(
    'builds values %s accepts from its structure alone, most of the time',
    (name, schema) => {
      const values = fc.sample(
        structuralInputArbitrary(schema, { overrides: REFINED_PATHS[name] }),
        {
          numRuns: SAMPLES,
          seed: FUZZ_SEED,
        },
      );
      // Only refinements (a phone number's validity, an https-only URL) are left to chance.
      expect(shareAccepted(schema, values)).toBeGreaterThan(0.4);
    },
  );

  it.each(API_SCHEMAS)('breaks %s with most of its mutations', (name, schema) => {
    const values = fc.sample(mutatedInputArbitrary(schema, { overrides: REFINED_PATHS[name] }), {
      numRuns: SAMPLES,
      seed: FUZZ_SEED,
    });
    expect(shareAccepted(schema, values)).toBeLessThan(0.5);
  });

  it('honours lengths, ranges, formats and optional keys', () => {
    const schema = z.object({
      id: z.uuid(),
      email: z.string().trim().max(254).pipe(z.email()),
      name: z.string().min(3).max(5),
      days: z.number().int().min(1).max(30),
      ratio: z.number().min(0.5).max(1).nullable(),
      tags: z.array(z.enum(['a', 'b'])).max(2),
      note: z.string().optional(),
    });
    const values = fc.sample(structuralInputArbitrary(schema), {
      numRuns: SAMPLES,
      seed: FUZZ_SEED,
    });
    expect(shareAccepted(schema, values)).toBe(1);
    expect(values.some((value) => !Object.hasOwn(value as object, 'note'))).toBe(true);
    expect(values.some((value) => (value as { ratio: unknown }).ratio === null)).toBe(true);
  });

  it('uses an override where a refinement hides the rule', () => {
    const schema = z.object({
      code: z.string().refine((value) => value.startsWith('SW-'), 'must start with SW-'),
    });
    const values = fc.sample(
      validInputArbitrary(schema, {
        overrides: { code: fc.stringMatching(/^SW-\d{3}$/) },
      }),
      { numRuns: 50, seed: FUZZ_SEED },
    );
    expect(values.every((value) => value.code.startsWith('SW-'))).toBe(true);
  });

  it('names the path of a schema it cannot derive instead of guessing', () => {
    const schema = z.object({ extra: z.object({ map: z.record(z.string(), z.number()) }) });
    expect(() => structuralInputArbitrary(schema)).toThrow(/record at "extra\.map"/);
  });
});

describe('mutating a valid input', () => {
  const input = { email: 'a@example.com', keys: { auth: 'x', p256dh: 'y' }, list: [1, 2] };

  it('drops or replaces a field at any depth without touching the original', () => {
    expect(mutateInput(input, { kind: 'drop', target: 0 })).toEqual({
      keys: { auth: 'x', p256dh: 'y' },
      list: [1, 2],
    });
    // Depth-first: the root's three keys, then keys' two, then list's two items.
    expect(mutateInput(input, { kind: 'replace', target: 3, value: null })).toEqual({
      ...input,
      keys: { auth: null, p256dh: 'y' },
    });
    expect(mutateInput(input, { kind: 'drop', target: 6 })).toEqual({ ...input, list: [1] });
    expect(input.keys.auth).toBe('x');
  });

  it('adds __proto__ as an own key that JSON.stringify writes out', () => {
    const mutated = mutateInput(input, {
      kind: 'add',
      target: 0,
      key: '__proto__',
      value: { isAdmin: true },
    });
    expect(JSON.stringify(mutated)).toContain('"__proto__":{"isAdmin":true}');
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
  });

  it('swaps the whole input for a value of another type', () => {
    expect(mutateInput(input, { kind: 'swap-root', value: [] })).toEqual([]);
  });
});
