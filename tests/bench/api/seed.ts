// Seeds the benchmark's users, searches and watch data through the product's repositories.
import type { Insertable } from 'kysely';
import type { Db } from '#server/db/database.ts';
import {
  insertAvailabilityEvents,
  upsertNeighbours,
  upsertSnapshots,
  type AvailabilityEventRow,
  type SnapshotRow,
} from '#server/db/repositories/availability-repository.ts';
import {
  insertPreferredParts,
  insertSearches,
} from '#server/db/repositories/searches-repository.ts';
import { insertUsers } from '#server/db/repositories/users-repository.ts';
import { markTargetsCovered, syncPollTargets } from '#server/db/repositories/watch-repository.ts';
import type { PlanCode, SearchesTable } from '#server/db/schema.ts';
import {
  COUNTRY_SEEDS,
  PRODUCT_MODEL_SEEDS,
  PRODUCT_TYPE_SEEDS,
  STORE_SEEDS,
  type StoreSeed,
} from '#shared/catalog/index.ts';
import { createSeededRandom, generatePlanMix } from './plan-mix.ts';

/** A seeded Premium user with the plan's maximum of searches: who the signed-in routes load. */
export type BenchUser = { subject: string; email: string; searchIds: string[] };

/** What was seeded. */
export type SeedReport = {
  usersByPlan: Record<PlanCode, number>;
  searchesByPlan: Record<PlanCode, number>;
  fullPremiumUsers: BenchUser[];
  neighbours: number;
  snapshots: number;
  availableSnapshots: number;
  events: number;
  pollTargets: number;
};

const USERS_PER_TRANSACTION = 1000;
const DAY_MS = 24 * 3600 * 1000;
const NEIGHBOUR_LIMIT = 8;
const NEIGHBOUR_MAX_MILES = 150;

type Group = { storeId: string; countryCode: string; productId: string; parts: string[] };

/** Every (store, product type) a search could watch, with the parts sold in that country. */
function listGroups(): Group[] {
  const countryByLocale = new Map(COUNTRY_SEEDS.map((c) => [c.locale_code, c.country_code]));
  const groups: Group[] = [];
  for (const store of STORE_SEEDS) {
    const countryCode = countryByLocale.get(store.country_locale);
    if (countryCode === undefined) continue;
    for (const product of PRODUCT_TYPE_SEEDS) {
      const parts = PRODUCT_MODEL_SEEDS.filter(
        (m) => m.country_code === countryCode && m.product_id === product.product_id,
      ).map((m) => m.part_number);
      if (parts.length > 0) {
        groups.push({ storeId: store.store_id, countryCode, productId: product.product_id, parts });
      }
    }
  }
  return groups;
}

/** Items keyed by `keyOf`, in input order (Map.groupBy is newer than the ES2023 lib). */
function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key) ?? [];
    list.push(item);
    groups.set(key, list);
  }
  return groups;
}

/** `count` distinct items of `items` (fewer when it has fewer), in random order. */
function pickDistinct<T>(items: readonly T[], count: number, random: () => number): T[] {
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count && pool.length > 0) {
    picked.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  }
  return picked;
}

/**
 * Seeds `users` users holding exactly `searches` searches (plan mix of plan-mix.ts; each
 * user's searches in their home country), then neighbours, snapshots, restock events and
 * covered poll targets so inventories and histories have content.
 */
export async function seedBenchData(
  db: Db,
  options: { issuer: string; users: number; searches: number; fullPremiumUsers: number },
): Promise<SeedReport> {
  const random = createSeededRandom(20_260_115);
  const groups = listGroups();
  const groupsByCountry = groupBy(groups, (group) => group.countryCode);
  const largestCountry = Math.max(...[...groupsByCountry.values()].map((list) => list.length));
  if (largestCountry < 10) throw new Error('no country has 10 stores and products to watch');
  const partsOfGroup = new Map(groups.map((g) => [`${g.storeId}|${g.productId}`, g.parts]));
  const shapes = generatePlanMix({
    users: options.users,
    searches: options.searches,
    shares: { good: 0.15, better: 0.35, best: 0.5 },
    fullPremiumUsers: options.fullPremiumUsers,
    random,
  });
  const report: SeedReport = {
    usersByPlan: { good: 0, better: 0, best: 0 },
    searchesByPlan: { good: 0, better: 0, best: 0 },
    fullPremiumUsers: [],
    neighbours: 0,
    snapshots: 0,
    availableSnapshots: 0,
    events: 0,
    pollTargets: 0,
  };
  for (let start = 0; start < shapes.length; start += USERS_PER_TRANSACTION) {
    const batch = shapes.slice(start, start + USERS_PER_TRANSACTION);
    await db.transaction().execute(async (trx) => {
      const users = await insertUsers(
        trx,
        batch.map((shape, offset) => ({
          issuer: options.issuer,
          subject: `bench-${start + offset}`,
          email: `bench-${start + offset}@bench.test`,
          plan: shape.plan,
        })),
      );
      const userBySubject = new Map(users.map((user) => [user.subject, user]));
      const rows: Insertable<SearchesTable>[] = [];
      for (const [offset, shape] of batch.entries()) {
        const user = userBySubject.get(`bench-${start + offset}`);
        if (user === undefined) throw new Error('a seeded user was not returned');
        report.usersByPlan[shape.plan] += 1;
        report.searchesByPlan[shape.plan] += shape.searches;
        // Weighted by stores and products, and with enough of them for all the user's searches.
        let home = groups[Math.floor(random() * groups.length)].countryCode;
        while ((groupsByCountry.get(home)?.length ?? 0) < shape.searches) {
          home = groups[Math.floor(random() * groups.length)].countryCode;
        }
        for (const group of pickDistinct(groupsByCountry.get(home) ?? [], shape.searches, random)) {
          const isNearby = random() < 0.7;
          rows.push({
            user_id: user.id,
            product_type: group.productId,
            store_id: group.storeId,
            include_nearby_store_results: isNearby,
            max_distance_miles: isNearby && random() < 0.5 ? 50 : null,
            show_results_only_for_preferred_models: random() < 0.3,
            send_email_updates: shape.plan !== 'good' && random() < 0.8,
            send_text_updates: shape.plan === 'best' && random() < 0.3,
          });
        }
      }
      const searches = await insertSearches(trx, rows);
      if (searches.length !== batch.reduce((sum, shape) => sum + shape.searches, 0)) {
        throw new Error('the seeded searches do not add up to the plan mix');
      }
      const preferred = searches.flatMap((search) => {
        const parts = partsOfGroup.get(`${search.store_id}|${search.product_type}`) ?? [];
        return pickDistinct(parts, 1 + Math.floor(random() * 3), random).map((part_number) => ({
          search_id: search.id,
          part_number,
        }));
      });
      await insertPreferredParts(trx, preferred);
      const searchIdsByUser = groupBy(searches, (search) => search.user_id);
      for (const user of users) {
        const ids = (searchIdsByUser.get(user.id) ?? []).map((search) => search.id);
        const isFull = user.plan === 'best' && ids.length === 10;
        if (isFull && report.fullPremiumUsers.length < options.fullPremiumUsers) {
          report.fullPremiumUsers.push({
            subject: user.subject,
            email: user.email ?? '',
            searchIds: ids,
          });
        }
      }
    });
  }
  await seedWatchData(db, groups, random, report);
  return report;
}

/** Distance in miles between two stores with coordinates. */
function measureMiles(a: StoreSeed, b: StoreSeed): number | undefined {
  if (a.latitude === null || a.longitude === null || b.latitude === null || b.longitude === null) {
    return undefined;
  }
  const radians = (degrees: number): number => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.sqrt(h));
}

/**
 * What the watcher would have written after a while: each store's nearest stores, a status
 * for every model at every store (about a quarter available), up to a few weeks of restock
 * events per model, and every watched group covered a minute ago.
 */
async function seedWatchData(
  db: Db,
  groups: readonly Group[],
  random: () => number,
  report: SeedReport,
): Promise<void> {
  const now = Date.now();
  const observedAt = new Date(now - 60_000);
  await db.transaction().execute(async (trx) => {
    for (const store of STORE_SEEDS) {
      const near = STORE_SEEDS.filter(
        (other) =>
          other.store_id !== store.store_id && other.country_locale === store.country_locale,
      )
        .map((other) => ({
          neighbour_store_id: other.store_id,
          distance_miles: measureMiles(store, other),
        }))
        .filter(
          (n): n is { neighbour_store_id: string; distance_miles: number } =>
            n.distance_miles !== undefined && n.distance_miles <= NEIGHBOUR_MAX_MILES,
        )
        .sort((a, b) => a.distance_miles - b.distance_miles)
        .slice(0, NEIGHBOUR_LIMIT);
      await upsertNeighbours(trx, store.store_id, near, observedAt);
      report.neighbours += near.length;
    }
    const snapshots: Parameters<typeof upsertSnapshots>[1][number][] = [];
    const events: Omit<AvailabilityEventRow, 'id'>[] = [];
    for (const group of groups) {
      for (const part of group.parts) {
        const roll = random();
        const status: SnapshotRow['status'] =
          roll < 0.25 ? 'available' : roll < 0.9 ? 'unavailable' : 'ineligible';
        const quote = status === 'available' ? 'Today' : null;
        snapshots.push({
          store_id: group.storeId,
          part_number: part,
          status,
          pickup_quote: quote,
          observed_at: observedAt,
        });
        // Restocks alternate with sell-outs, oldest first, ending in the current status.
        const flips = status === 'ineligible' ? 0 : Math.floor(random() * 6);
        let at = now - Math.floor(random() * 28 * DAY_MS);
        const isAvailableNow = status === 'available';
        let isAvailable = flips % 2 === 1 ? !isAvailableNow : isAvailableNow;
        for (let flip = 0; flip < flips; flip += 1) {
          events.push({
            store_id: group.storeId,
            part_number: part,
            from_status: isAvailable ? 'available' : 'unavailable',
            to_status: isAvailable ? 'unavailable' : 'available',
            pickup_quote: isAvailable ? null : 'Today',
            observed_at: new Date(at),
          });
          isAvailable = !isAvailable;
          at += Math.floor(random() * ((now - at) / 2));
        }
      }
    }
    for (let start = 0; start < snapshots.length; start += 2000) {
      await upsertSnapshots(trx, snapshots.slice(start, start + 2000));
    }
    for (let start = 0; start < events.length; start += 2000) {
      await insertAvailabilityEvents(trx, events.slice(start, start + 2000));
    }
    report.snapshots = snapshots.length;
    report.availableSnapshots = snapshots.filter((s) => s.status === 'available').length;
    report.events = events.length;
    report.pollTargets = await syncPollTargets(trx, new Date(now));
    for (const [key, list] of groupBy(groups, (g) => `${g.countryCode}|${g.productId}`)) {
      const [countryCode, productId] = key.split('|');
      await markTargetsCovered(trx, {
        country_code: countryCode,
        product_id: productId,
        store_ids: list.map((g) => g.storeId),
        covered_at: observedAt,
      });
    }
  });
}
