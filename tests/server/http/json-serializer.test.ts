import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { searchHistorySchema, searchSchema, storeSchema } from '#shared/api/index.ts';
import { compileResponseSerializer } from '#server/http/json-serializer.ts';
import { startApiHarness, type ApiHarness } from '#tests/helpers/api-harness.ts';
import { validInputArbitrary } from '#tests/helpers/zod-arbitraries.ts';

/** Every response schema the app compiled a serializer for, with its route and status. */
const compiledRoutes = vi.hoisted(
  () => [] as { method: string; url: string; httpStatus: string; schema: unknown }[],
);

vi.mock('#server/http/json-serializer.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('#server/http/json-serializer.ts')>();
  return {
    ...original,
    createJsonSerializerCompiler: () => {
      const compile = original.createJsonSerializerCompiler();
      return (route: Parameters<typeof compile>[0]) => {
        compiledRoutes.push({
          method: String(route.method),
          url: route.url ?? '',
          httpStatus: route.httpStatus ?? '',
          schema: route.schema,
        });
        return compile(route);
      };
    },
  };
});

/** Fields whose refinements random strings would almost never pass (the account's quiet hours). */
const REFINED_PATHS = {
  'quiet_hours.start': fc.constantFrom('22:00', '00:00', '07:30'),
  'quiet_hours.end': fc.constantFrom('07:00', '23:59'),
  'quiet_hours.time_zone': fc.constantFrom('America/New_York', 'Europe/London', 'UTC'),
};

/** How every reply was written before: the zod schema's encoding, then JSON.stringify. */
function stringifyAsBefore(schema: z.ZodType, value: unknown): string {
  return JSON.stringify(z.encode(schema, value));
}

describe('the compiled JSON serializer', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(async () => api.close());

  it('writes every route’s replies exactly as JSON.stringify of the zod output did', () => {
    const zodSchemas = new Map<z.ZodType, string[]>();
    for (const route of compiledRoutes) {
      expect(route.schema, `${route.method} ${route.url} ${route.httpStatus}`).toBeInstanceOf(
        z.ZodType,
      );
      const routes = zodSchemas.get(route.schema as z.ZodType) ?? [];
      routes.push(`${route.method} ${route.url} ${route.httpStatus}`);
      zodSchemas.set(route.schema as z.ZodType, routes);
    }
    const described = compiledRoutes.map((route) => `${route.method} ${route.url}`);
    for (const route of [
      'GET /v2/searches/my_searches',
      'GET /v2/searches/:id',
      'GET /v2/searches/:id/inventory',
      'GET /v2/searches/:id/history',
      'GET /v2/products',
      'GET /v2/account',
      'GET /app-config.json',
    ]) {
      expect(described).toContain(route);
    }
    for (const [schema, routes] of zodSchemas) {
      const serialize = compileResponseSerializer(schema);
      fc.assert(
        fc.property(validInputArbitrary(schema, { overrides: REFINED_PATHS }), (value) => {
          expect(serialize(value), routes.join(', ')).toBe(stringifyAsBefore(schema, value));
        }),
        { numRuns: 150 },
      );
    }
  });

  it('writes awkward strings and numbers as JSON.stringify does', () => {
    const serialize = compileResponseSerializer(searchHistorySchema);
    const awkward = [
      '',
      'quote " and backslash \\',
      'control \u0000\u001f\n\t',
      'lone surrogate \ud800 and pair 😀',
      'é'.repeat(50),
      `${'x'.repeat(5000)}"`,
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...awkward),
        fc.constantFrom(0, -0, 1e21, 5e-324, 1.5, -12.25, Number.MAX_SAFE_INTEGER),
        (text, distance) => {
          const value = {
            days: 1,
            events: [
              {
                id: text,
                store_id: 'R095',
                store_name: text,
                distance_miles: distance,
                part_number: 'MYW93LL/A',
                display_name: text,
                from_status: null,
                to_status: 'available' as const,
                pickup_quote: text,
                observed_at: '2025-01-01T00:00:00.000Z',
              },
            ],
            daily: [{ date: '2025-01-01', restocks: 3 }],
            last_checked_at: null,
            is_stale: false,
          };
          expect(serialize(value)).toBe(stringifyAsBefore(searchHistorySchema, value));
        },
      ),
    );
  });

  it('leaves out fields the schema does not name, as the zod parse did', () => {
    const row = {
      store_id: 'R095',
      store_name: 'Fifth Avenue',
      country_locale: 'en_US',
      city: 'New York',
      state_code: 'NY',
      state_name: 'New York',
      address1: '767 Fifth Avenue',
      address2: null,
      postal_code: '10153',
      telephone: null,
      store_slug: 'fifthavenue',
      latitude: 40.76,
      updated_at: new Date(0),
    };
    const written = compileResponseSerializer(storeSchema)(row);
    expect(written).toBe(stringifyAsBefore(storeSchema, row));
    expect(written).not.toContain('latitude');
  });

  it('refuses a reply missing a required field rather than writing a broken answer', () => {
    const serialize = compileResponseSerializer(searchSchema);
    expect(() => serialize({ id: 'only an id' })).toThrow(/required/);
  });
});
