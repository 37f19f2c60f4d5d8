import { sql, type Selectable } from 'kysely';
import type { Executor } from '../database.ts';
import type { PollTargetsTable } from '../schema.ts';
import { isWatchKitType } from '#shared/catalog/watch-kits.ts';
import { isModelUnretiredByAnswers } from './upstream-knowledge-repository.ts';

/** A poll target row. */
export type PollTargetRow = Selectable<PollTargetsTable>;
/** Identifies a poll target. */
export type PollTargetKey = { country_code: string; product_id: string; store_id: string };

/**
 * The searches the watcher asks for: not paused (a search paused by a plan downgrade is not
 * polled), of a type it can ask (no Apple Watch kit, `kitTypes`: shared/catalog/watch-kits.ts),
 * and with a model Apple's answers have not retired in the store's country (or none known
 * there yet).
 */
function selectPolledSearches(db: Executor, kitTypes: readonly string[]) {
  const models = sql`product_models m
    where m.product_id = searches.product_type and m.country_code = countries.country_code`;
  let query = db
    .selectFrom('searches')
    .innerJoin('stores', 'stores.store_id', 'searches.store_id')
    .innerJoin('countries', 'countries.locale_code', 'stores.country_locale')
    .where('searches.paused_at', 'is', null)
    .where(
      sql<boolean>`(not exists (select 1 from ${models})
        or exists (select 1 from ${models} and ${isModelUnretiredByAnswers('m')}))`,
    );
  if (kitTypes.length > 0) query = query.where('searches.product_type', 'not in', [...kitTypes]);
  return query;
}

/** Product types Apple answers right only as kits the catalog cannot name yet: not asked. */
async function listKitTypes(db: Executor): Promise<string[]> {
  const types = await db.selectFrom('product_types').select(['product_id', 'family']).execute();
  return types
    .filter((type) => isWatchKitType(type.product_id, type.family))
    .map((type) => type.product_id);
}

/**
 * Makes poll_targets match the saved searches: one row per (country, product type, store)
 * some polled search watches (see selectPolledSearches), due from `now`; rows none needs any
 * more are removed. Returns the target count.
 */
export async function syncPollTargets(db: Executor, now: Date): Promise<number> {
  const kitTypes = await listKitTypes(db);
  await db
    .insertInto('poll_targets')
    .columns(['country_code', 'product_id', 'store_id', 'next_due_at'])
    .expression(
      selectPolledSearches(db, kitTypes)
        .select(['countries.country_code', 'searches.product_type', 'searches.store_id'])
        .select(sql<Date>`${now}::timestamptz`.as('next_due_at'))
        .distinct(),
    )
    .onConflict((conflict) =>
      conflict.columns(['country_code', 'product_id', 'store_id']).doNothing(),
    )
    .execute();
  await db
    .deleteFrom('poll_targets')
    .where((eb) =>
      eb.not(
        eb.exists(
          selectPolledSearches(db, kitTypes)
            .select(sql.lit(1).as('one'))
            .where(sql<boolean>`searches.product_type = poll_targets.product_id`)
            .where(sql<boolean>`searches.store_id = poll_targets.store_id`)
            .where(sql<boolean>`countries.country_code = poll_targets.country_code`),
        ),
      ),
    )
    .execute();
  const row = await db
    .selectFrom('poll_targets')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Every poll target. */
export async function listPollTargets(db: Executor): Promise<PollTargetRow[]> {
  return await db.selectFrom('poll_targets').selectAll().execute();
}

/** Records that an answer listed these stores for the product: their targets count as covered. */
export async function markTargetsCovered(
  db: Executor,
  coverage: {
    country_code: string;
    product_id: string;
    store_ids: readonly string[];
    covered_at: Date;
  },
): Promise<number> {
  if (coverage.store_ids.length === 0) return 0;
  const result = await db
    .updateTable('poll_targets')
    .set({
      last_covered_at: sql<Date>`greatest(coalesce(last_covered_at, ${coverage.covered_at}), ${coverage.covered_at})`,
      last_requested_at: sql<Date>`greatest(coalesce(last_requested_at, ${coverage.covered_at}), ${coverage.covered_at})`,
      consecutive_failures: 0,
      last_failure_kind: null,
    })
    .where('country_code', '=', coverage.country_code)
    .where('product_id', '=', coverage.product_id)
    .where('store_id', 'in', coverage.store_ids)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Records that an alerting sweep covered these targets' preferred parts. */
export async function markTargetsAlertCovered(
  db: Executor,
  coverage: { country_code: string; targets: readonly [string, string][]; covered_at: Date },
): Promise<void> {
  if (coverage.targets.length === 0) return;
  await db
    .updateTable('poll_targets')
    .set({
      last_alert_covered_at: coverage.covered_at,
      consecutive_failures: 0,
      last_failure_kind: null,
    })
    .where('country_code', '=', coverage.country_code)
    .where((eb) =>
      eb.or(
        coverage.targets.map(([productId, storeId]) =>
          eb.and([eb('product_id', '=', productId), eb('store_id', '=', storeId)]),
        ),
      ),
    )
    .execute();
}

/**
 * Records that a request meant for these targets told nothing (failed, or not believed): their
 * searches show checks failing until an answer covers them again.
 */
export async function recordTargetsFailure(
  db: Executor,
  failure: {
    country_code: string;
    product_ids: readonly string[];
    store_ids: readonly string[];
    at: Date;
    kind: string;
  },
): Promise<void> {
  if (failure.product_ids.length === 0 || failure.store_ids.length === 0) return;
  await db
    .updateTable('poll_targets')
    .set((eb) => ({
      last_requested_at: failure.at,
      consecutive_failures: eb('consecutive_failures', '+', 1),
      last_failure_kind: failure.kind,
    }))
    .where('country_code', '=', failure.country_code)
    .where('product_id', 'in', failure.product_ids)
    .where('store_id', 'in', failure.store_ids)
    .execute();
}

/**
 * Poll targets whose newest coverage is older than `before`. Targets never covered are left
 * out: a search saved a moment ago waits for the next cycle, which is not a delay.
 */
export async function countOverdueTargets(db: Executor, before: Date): Promise<number> {
  const row = await db
    .selectFrom('poll_targets')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('last_covered_at', '<', before)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A search that wants to hear about a part at a store, with what decides its channels. */
export type AlertCandidateRow = {
  search_id: string;
  user_id: string;
  search_store_id: string;
  plan: 'good' | 'better' | 'best';
  enable_notifications: boolean;
  send_email_updates: boolean;
  send_text_updates: boolean;
  has_email: boolean;
  has_phone: boolean;
  is_text_opted_out: boolean;
  has_push_subscription: boolean;
  /** 0 at the search's own store; else the store's distance from it. */
  distance_miles: number;
};

/**
 * Searches of `productId` preferring `partNumber` whose store is `storeId`, or whose store has
 * it as a neighbour within the search's limit when nearby results are on.
 */
export async function listAlertCandidates(
  db: Executor,
  query: { storeId: string; partNumber: string; productId: string },
): Promise<AlertCandidateRow[]> {
  const rows = await db
    .selectFrom('searches as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('search_preferred_models as pm', (join) =>
      join.onRef('pm.search_id', '=', 's.id').on('pm.part_number', '=', query.partNumber),
    )
    .leftJoin('store_neighbours as n', (join) =>
      join.onRef('n.store_id', '=', 's.store_id').on('n.neighbour_store_id', '=', query.storeId),
    )
    .select([
      's.id as search_id',
      's.user_id',
      's.store_id as search_store_id',
      'u.plan',
      'u.enable_notifications',
      's.send_email_updates',
      's.send_text_updates',
      'u.is_text_opted_out',
    ])
    .select(sql<boolean>`u.email is not null and u.email <> ''`.as('has_email'))
    .select(sql<boolean>`u.phone_number is not null and u.phone_number <> ''`.as('has_phone'))
    .select(
      sql<boolean>`exists (select 1 from push_subscriptions p where p.user_id = u.id)`.as(
        'has_push_subscription',
      ),
    )
    .select(
      sql<number>`case when s.store_id = ${query.storeId} then 0 else n.distance_miles end`.as(
        'distance_miles',
      ),
    )
    .where('s.product_type', '=', query.productId)
    // Paused by a plan downgrade: kept, but alerts nobody.
    .where('s.paused_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('s.store_id', '=', query.storeId),
        eb.and([
          eb('s.include_nearby_store_results', '=', true),
          eb('n.distance_miles', 'is not', null),
          eb.or([
            eb('s.max_distance_miles', 'is', null),
            eb('n.distance_miles', '<=', eb.ref('s.max_distance_miles')),
          ]),
        ]),
      ]),
    )
    .orderBy('s.id')
    .execute();
  return rows.map((row) => ({ ...row, distance_miles: Number(row.distance_miles) }));
}

/** Last alert times of searches for a part at a store, keyed by search id. */
export async function listLastAlertedAt(
  db: Executor,
  query: { searchIds: readonly string[]; storeId: string; partNumber: string },
): Promise<Map<string, Date>> {
  if (query.searchIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('search_alert_state')
    .select(['search_id', 'last_alerted_at'])
    .where('search_id', 'in', query.searchIds)
    .where('store_id', '=', query.storeId)
    .where('part_number', '=', query.partNumber)
    .execute();
  return new Map(rows.map((row) => [row.search_id, row.last_alerted_at]));
}

/** Records that these searches were alerted about a part at a store. */
export async function recordAlerted(
  db: Executor,
  alerted: { searchIds: readonly string[]; storeId: string; partNumber: string; at: Date },
): Promise<void> {
  if (alerted.searchIds.length === 0) return;
  await db
    .insertInto('search_alert_state')
    .values(
      alerted.searchIds.map((search_id) => ({
        search_id,
        store_id: alerted.storeId,
        part_number: alerted.partNumber,
        last_alerted_at: alerted.at,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['search_id', 'store_id', 'part_number'])
        .doUpdateSet((eb) => ({ last_alerted_at: eb.ref('excluded.last_alerted_at') })),
    )
    .execute();
}

/** Names an alert shows: the product type, the model in the store's country, and the store. */
export async function findAlertNames(
  db: Executor,
  query: { productId: string; partNumber: string; storeId: string; countryCode: string },
): Promise<
  | {
      product_name: string;
      model_name: string | null;
      store_name: string;
      city: string;
      state_code: string | null;
      store_slug: string | null;
    }
  | undefined
> {
  return await db
    .selectFrom('stores')
    .innerJoin('product_types', (join) => join.on('product_types.product_id', '=', query.productId))
    .leftJoin('product_models', (join) =>
      join
        .onRef('product_models.product_id', '=', 'product_types.product_id')
        .on('product_models.country_code', '=', query.countryCode)
        .on('product_models.part_number', '=', query.partNumber),
    )
    .select([
      'product_types.product_name',
      'product_models.display_name as model_name',
      'stores.store_name',
      'stores.city',
      'stores.state_code',
      'stores.store_slug',
    ])
    .where('stores.store_id', '=', query.storeId)
    .executeTakeFirst();
}

/**
 * Targets of these product types at these stores that no answer covered since `since`:
 * whether a planned request is still worth its token.
 */
export async function countUncoveredTargets(
  db: Executor,
  scope: {
    country_code: string;
    product_ids: readonly string[];
    store_ids: readonly string[];
    since: Date;
    /** Count an alerting sweep's coverage too (it covers preferred parts only). */
    isAlertOnly?: boolean;
  },
): Promise<number> {
  if (scope.product_ids.length === 0 || scope.store_ids.length === 0) return 0;
  const newest =
    scope.isAlertOnly === true
      ? sql<Date>`greatest(coalesce(last_covered_at, '-infinity'), coalesce(last_alert_covered_at, '-infinity'))`
      : sql<Date>`coalesce(last_covered_at, '-infinity')`;
  const row = await db
    .selectFrom('poll_targets')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('country_code', '=', scope.country_code)
    .where('product_id', 'in', scope.product_ids)
    .where('store_id', 'in', scope.store_ids)
    .where(newest, '<', scope.since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The models of these product types in a country, and any extra parts (the control) it sells. */
export async function listRequestModels(
  db: Executor,
  scope: { country_code: string; product_ids: readonly string[]; extra_parts: readonly string[] },
): Promise<{ product_id: string; part_number: string; display_name: string }[]> {
  if (scope.product_ids.length === 0) return [];
  return await db
    .selectFrom('product_models')
    .select(['product_id', 'part_number', 'display_name'])
    .where('country_code', '=', scope.country_code)
    .where((eb) =>
      scope.extra_parts.length === 0
        ? eb('product_id', 'in', scope.product_ids)
        : eb.or([
            eb('product_id', 'in', scope.product_ids),
            eb('part_number', 'in', scope.extra_parts),
          ]),
    )
    .orderBy('product_id')
    .orderBy('display_name')
    .execute();
}
