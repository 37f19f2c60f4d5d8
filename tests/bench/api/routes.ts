// The /v2 reads the API benchmark loads, and the sequential probes around the loads.
import type { z } from 'zod';
import { countryListSchema, productListSchema, storeListSchema } from '#shared/api/catalog.ts';
import { exampleInventorySchema, searchInventorySchema } from '#shared/api/inventory.ts';
import { searchListSchema, searchSchema } from '#shared/api/searches.ts';
import { searchHistorySchema } from '#shared/api/watch.ts';
import type { RequestVariant } from './load.ts';
import type { RouteKind } from './report.ts';

/** A loaded route: the requests it cycles through and the shared schema of its 200 answer. */
export type BenchRoute = {
  name: string;
  kind: RouteKind;
  variants: RequestVariant[];
  schema: z.ZodType;
};

/** A signed-in user the loads act as: their bearer header and their searches. */
export type LoadedUser = { headers: Record<string, string>; searchIds: readonly string[] };

/** The public catalog reads, then my_searches and the three per-search reads of `users`. */
export function listBenchRoutes(users: readonly LoadedUser[]): BenchRoute[] {
  const perSearch = (suffix: string): RequestVariant[] =>
    users.flatMap((user) =>
      user.searchIds.map((id) => ({ path: `/v2/searches/${id}${suffix}`, headers: user.headers })),
    );
  const publicRoute = (url: string, schema: z.ZodType): BenchRoute => ({
    name: `GET ${url}`,
    kind: 'catalog',
    variants: [{ path: url, headers: {} }],
    schema,
  });
  const signedIn = (suffix: string, schema: z.ZodType): BenchRoute => ({
    name: `GET /v2/searches/:id${suffix}`,
    kind: 'signed-in',
    variants: perSearch(suffix),
    schema,
  });
  return [
    publicRoute('/v2/products', productListSchema),
    publicRoute('/v2/stores', storeListSchema),
    publicRoute('/v2/countries', countryListSchema),
    publicRoute('/v2/inventory/example_inventory', exampleInventorySchema),
    {
      name: 'GET /v2/searches/my_searches (10 searches)',
      kind: 'my-searches',
      variants: users.map((user) => ({ path: '/v2/searches/my_searches', headers: user.headers })),
      schema: searchListSchema,
    },
    signedIn('', searchSchema),
    signedIn('/inventory', searchInventorySchema),
    signedIn('/history', searchHistorySchema),
  ];
}

// Probes come from 192.168/16, which the loads' rotating addresses (10/8) never use, so they
// never share a per-address budget with a load.
let probes = 0;

/** Sends one request outside the loads; throws unless it answers 200. */
export async function sendProbe(origin: string, variant: RequestVariant): Promise<unknown> {
  probes += 1;
  const address = `192.168.${(probes >> 8) & 255}.${probes & 255}`;
  const response = await fetch(`${origin}${variant.path}`, {
    headers: { ...variant.headers, 'x-forwarded-for': address },
  });
  const body = (await response.json()) as unknown;
  if (response.status !== 200) {
    throw new Error(`${variant.path} answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return body;
}

/** Checks the first `count` variants of `route` answer 200 with bodies its schema accepts. */
export async function checkRouteAnswers(
  origin: string,
  route: BenchRoute,
  count: number,
): Promise<unknown[]> {
  const bodies: unknown[] = [];
  for (const variant of route.variants.slice(0, count)) {
    bodies.push(route.schema.parse(await sendProbe(origin, variant)));
  }
  return bodies;
}

/** What sequential requests of a route cost: statements and wall time per request. */
export type SequentialFigures = { queriesPerRequest: number; meanMs: number };

/** Sends `requests` requests of `route` one at a time, counting statements and time. */
export async function probeSequentially(
  origin: string,
  route: BenchRoute,
  readCount: () => number,
  requests: number,
): Promise<SequentialFigures> {
  const before = readCount();
  const started = performance.now();
  for (let index = 0; index < requests; index += 1) {
    await sendProbe(origin, route.variants[(index * 7) % route.variants.length]);
  }
  return {
    queriesPerRequest: (readCount() - before) / requests,
    meanMs: (performance.now() - started) / requests,
  };
}
