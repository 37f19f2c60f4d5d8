import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Executor } from '../database.ts';
import type {
  CountryEndpointsTable,
  InvalidPartsTable,
  LocationSeedsTable,
  UpstreamRetiredPartsTable,
} from '../schema.ts';

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
 * A condition on a row of `table` (invalid_parts, upstream_retired_parts): the catalog still
 * sells its part as the same product and name, so what Apple's answers taught still applies.
 */
function isCatalogEntryUnchanged(
  table: 'invalid_parts' | 'upstream_retired_parts',
): RawBuilder<boolean> {
  return sql<boolean>`exists (
    select 1 from product_models m
    where m.country_code = ${sql.ref(`${table}.country_code`)}
      and m.part_number = ${sql.ref(`${table}.part_number`)}
      and m.product_id = ${sql.ref(`${table}.product_id`)}
      and m.display_name = ${sql.ref(`${table}.display_name`)})`;
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
    .where(isCatalogEntryUnchanged('invalid_parts'))
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

/** A part answered ineligible everywhere, and whether that retired it. */
export type RetiredPartRow = Selectable<UpstreamRetiredPartsTable>;
/** The catalog model a part was asked as. */
export type AskedModel = { part_number: string; product_id: string; display_name: string };

/**
 * A condition on a product_models row (by alias, e.g. "m"): its part is not retired by Apple's
 * answers in its country for the model it is now. The catalog's product lists add it so that
 * a type whose every model Apple retired there reads "no longer sold" there.
 */
export function isModelUnretiredByAnswers(alias: string): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<boolean>`not exists (
    select 1 from upstream_retired_parts r
    where r.country_code = ${column('country_code')}
      and r.part_number = ${column('part_number')}
      and r.product_id = ${column('product_id')}
      and r.display_name = ${column('display_name')}
      and r.retired_at is not null)`;
}

/**
 * Parts Apple's answers retired whose catalog entry is unchanged (same product and name): they
 * are asked no more and never chosen as control; a catalog change gives them another chance.
 */
export async function listRetiredParts(db: Executor): Promise<RetiredPartRow[]> {
  return await db
    .selectFrom('upstream_retired_parts')
    .selectAll()
    .where('retired_at', 'is not', null)
    .where(isCatalogEntryUnchanged('upstream_retired_parts'))
    .orderBy('country_code')
    .orderBy('part_number')
    .execute();
}

/**
 * Counts one believed answer of a country towards retiring parts: each part ineligible at
 * every listed store extends its run of such answers (a row kept for another model starts
 * over), and `retireAfter` in a row retire it; each part reported sold ends its run. Answers
 * the parts this answer retired.
 */
export async function recordRetirementEvidence(
  db: Executor,
  evidence: {
    country_code: string;
    ineligible: readonly AskedModel[];
    sold: readonly string[];
    at: Date;
    retireAfter: number;
  },
): Promise<string[]> {
  const { at } = evidence;
  let retired: string[] = [];
  if (evidence.ineligible.length > 0) {
    const isSameModel = sql<boolean>`(upstream_retired_parts.product_id = excluded.product_id
      and upstream_retired_parts.display_name = excluded.display_name)`;
    const answers = sql<number>`case when ${isSameModel}
      then upstream_retired_parts.ineligible_answers + 1 else 1 end`;
    const rows = await db
      .insertInto('upstream_retired_parts')
      .values(
        evidence.ineligible.map((model) => ({
          country_code: evidence.country_code,
          part_number: model.part_number,
          product_id: model.product_id,
          display_name: model.display_name,
          ineligible_answers: 1,
          last_answer_at: at,
          retired_at: evidence.retireAfter <= 1 ? at : null,
        })),
      )
      .onConflict((conflict) =>
        conflict.columns(['country_code', 'part_number']).doUpdateSet({
          product_id: (eb) => eb.ref('excluded.product_id'),
          display_name: (eb) => eb.ref('excluded.display_name'),
          ineligible_answers: answers,
          last_answer_at: (eb) => eb.ref('excluded.last_answer_at'),
          retired_at: sql<Date | null>`case
            when ${isSameModel} and upstream_retired_parts.retired_at is not null
              then upstream_retired_parts.retired_at
            when ${answers} >= ${evidence.retireAfter} then excluded.last_answer_at
            else null end`,
        }),
      )
      .returning(['part_number', 'retired_at'])
      .execute();
    // Retired by this answer: its own time, not an earlier one kept.
    retired = rows
      .filter((row) => row.retired_at?.getTime() === at.getTime())
      .map((row) => row.part_number);
  }
  if (evidence.sold.length > 0) {
    await db
      .deleteFrom('upstream_retired_parts')
      .where('country_code', '=', evidence.country_code)
      .where('part_number', 'in', [...evidence.sold])
      .execute();
  }
  return retired;
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
