import { sql, type Selectable } from 'kysely';
import type { Executor } from '../database.ts';
import type { CountryEndpointsTable, InvalidPartsTable, LocationSeedsTable } from '../schema.ts';

/** A location seed row. */
export type LocationSeedRow = Selectable<LocationSeedsTable>;
/** A country's endpoint row. */
export type CountryEndpointRow = Selectable<CountryEndpointsTable>;
/** An invalid part row. */
export type InvalidPartRow = Selectable<InvalidPartsTable>;
/** Identifies a location seed. */
export type SeedKey = { country_code: string; seed_store_id: string };

/** Every location seed with what its last answer listed. */
export async function listLocationSeeds(db: Executor): Promise<LocationSeedRow[]> {
  return await db.selectFrom('location_seeds').selectAll().execute();
}

/** One location seed, or undefined before it was first planned. */
export async function findLocationSeed(
  db: Executor,
  key: SeedKey,
): Promise<LocationSeedRow | undefined> {
  return await db
    .selectFrom('location_seeds')
    .selectAll()
    .where('country_code', '=', key.country_code)
    .where('seed_store_id', '=', key.seed_store_id)
    .executeTakeFirst();
}

/** Records what a seed's answer listed; its failures end and it is due again at once. */
export async function recordSeedAnswer(
  db: Executor,
  answer: SeedKey & { location: string; store_ids: readonly string[]; at: Date },
): Promise<void> {
  await db
    .insertInto('location_seeds')
    .values({
      country_code: answer.country_code,
      seed_store_id: answer.seed_store_id,
      location: answer.location,
      store_ids: [...answer.store_ids],
      learned_at: answer.at,
      last_requested_at: answer.at,
      next_due_at: answer.at,
    })
    .onConflict((conflict) =>
      conflict.columns(['country_code', 'seed_store_id']).doUpdateSet((eb) => ({
        location: eb.ref('excluded.location'),
        store_ids: eb.ref('excluded.store_ids'),
        learned_at: eb.ref('excluded.learned_at'),
        last_requested_at: eb.ref('excluded.last_requested_at'),
        next_due_at: eb.ref('excluded.next_due_at'),
        consecutive_failures: 0,
        last_failure_kind: null,
      })),
    )
    .execute();
}

/** Records a seed's failed request and when it may be asked again (backoff). */
export async function recordSeedFailure(
  db: Executor,
  failure: SeedKey & { location: string; at: Date; kind: string; next_due_at: Date },
): Promise<void> {
  await db
    .insertInto('location_seeds')
    .values({
      country_code: failure.country_code,
      seed_store_id: failure.seed_store_id,
      location: failure.location,
      last_requested_at: failure.at,
      last_failure_kind: failure.kind,
      consecutive_failures: 1,
      next_due_at: failure.next_due_at,
    })
    .onConflict((conflict) =>
      conflict.columns(['country_code', 'seed_store_id']).doUpdateSet((eb) => ({
        last_requested_at: eb.ref('excluded.last_requested_at'),
        last_failure_kind: eb.ref('excluded.last_failure_kind'),
        next_due_at: eb.ref('excluded.next_due_at'),
        consecutive_failures: eb('location_seeds.consecutive_failures', '+', 1),
      })),
    )
    .execute();
}

/** Every country's endpoint state. */
export async function listCountryEndpoints(db: Executor): Promise<CountryEndpointRow[]> {
  return await db.selectFrom('country_endpoints').selectAll().orderBy('country_code').execute();
}

/** One country's endpoint state, or undefined while it runs on the default shape. */
export async function findCountryEndpoint(
  db: Executor,
  countryCode: string,
): Promise<CountryEndpointRow | undefined> {
  return await db
    .selectFrom('country_endpoints')
    .selectAll()
    .where('country_code', '=', countryCode)
    .executeTakeFirst();
}

/** Writes a country's endpoint state. */
export async function saveCountryEndpoint(db: Executor, row: CountryEndpointRow): Promise<void> {
  await db
    .insertInto('country_endpoints')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('country_code').doUpdateSet({
        shape: row.shape,
        reason: row.reason,
        switched_at: row.switched_at,
        suspect_shape: row.suspect_shape,
        suspect_since: row.suspect_since,
        other_probed_at: row.other_probed_at,
      }),
    )
    .execute();
}

/**
 * Parts refused as invalid since `since` whose catalog entry is unchanged (same product and
 * name): a catalog change gives the part another chance at once.
 */
export async function listInvalidParts(db: Executor, since: Date): Promise<InvalidPartRow[]> {
  return await db
    .selectFrom('invalid_parts')
    .selectAll()
    .where('found_at', '>=', since)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('product_models')
          .select(sql.lit(1).as('one'))
          .whereRef('product_models.country_code', '=', 'invalid_parts.country_code')
          .whereRef('product_models.part_number', '=', 'invalid_parts.part_number')
          .whereRef('product_models.product_id', '=', 'invalid_parts.product_id')
          .whereRef('product_models.display_name', '=', 'invalid_parts.display_name'),
      ),
    )
    .orderBy('country_code')
    .orderBy('part_number')
    .execute();
}

/** Records parts Apple refused; a part found again gets a new time. */
export async function recordInvalidParts(
  db: Executor,
  rows: readonly InvalidPartRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('invalid_parts')
    .values([...rows])
    .onConflict((conflict) =>
      conflict.columns(['country_code', 'part_number']).doUpdateSet((eb) => ({
        product_id: eb.ref('excluded.product_id'),
        display_name: eb.ref('excluded.display_name'),
        reason: eb.ref('excluded.reason'),
        found_at: eb.ref('excluded.found_at'),
      })),
    )
    .execute();
}

/** The part seen available at the most stores of a country, and how many stores answered. */
export type BusiestPart = { partNumber: string; stores: number; observedStores: number };

/**
 * Per country, the part seen available at the most stores since `since`, with the number of
 * the country's stores any answer reported on in that time (the control part's candidates).
 */
export async function findBusiestParts(
  db: Executor,
  since: Date,
): Promise<Map<string, BusiestPart>> {
  const [rows, observed] = await Promise.all([
    db
      .selectFrom('availability_snapshots')
      .innerJoin('stores', 'stores.store_id', 'availability_snapshots.store_id')
      .innerJoin('countries', 'countries.locale_code', 'stores.country_locale')
      .select(['countries.country_code', 'availability_snapshots.part_number'])
      .select((eb) => eb.fn.countAll<number>().as('stores'))
      .where('availability_snapshots.status', '=', 'available')
      .where('availability_snapshots.observed_at', '>=', since)
      .groupBy(['countries.country_code', 'availability_snapshots.part_number'])
      .execute(),
    db
      .selectFrom('availability_snapshots')
      .innerJoin('stores', 'stores.store_id', 'availability_snapshots.store_id')
      .innerJoin('countries', 'countries.locale_code', 'stores.country_locale')
      .select('countries.country_code')
      .select((eb) =>
        eb.fn.count<number>('availability_snapshots.store_id').distinct().as('stores'),
      )
      .where('availability_snapshots.observed_at', '>=', since)
      .groupBy('countries.country_code')
      .execute(),
  ]);
  const observedByCountry = new Map(observed.map((row) => [row.country_code, Number(row.stores)]));
  const best = new Map<string, BusiestPart>();
  for (const row of rows) {
    const stores = Number(row.stores);
    const current = best.get(row.country_code);
    if (
      current === undefined ||
      stores > current.stores ||
      (stores === current.stores && row.part_number < current.partNumber)
    ) {
      best.set(row.country_code, {
        partNumber: row.part_number,
        stores,
        observedStores: observedByCountry.get(row.country_code) ?? stores,
      });
    }
  }
  return best;
}
