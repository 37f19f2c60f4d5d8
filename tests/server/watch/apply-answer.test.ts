import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncPollTargets } from '#server/db/repositories/watch-repository.ts';
import { insertSearch } from '#server/db/repositories/searches-repository.ts';
import { findOrCreateUserByIdentity } from '#server/db/repositories/users-repository.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { applyPickupAnswer, type AnswerScope } from '#server/watch/apply-answer.ts';
import type { PickupAnswer, PickupStatus, StoreAvailability } from '#shared/upstream/index.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { readSnapshotStatus } from './support.ts';

const T0 = Date.UTC(2026, 0, 15, 12);
const GROUP = { countryCode: 'CA', productId: 'iphone16pro', storeId: 'R121' };

/** An answer to a location request seeded at `storeId`, for parts A, B and C of the type. */
function scopeAt(storeId: string): AnswerScope {
  return {
    countryCode: GROUP.countryCode,
    productByPart: new Map(['A', 'B', 'C'].map((part) => [part, GROUP.productId])),
    coveredProductIds: [GROUP.productId],
    originStoreId: storeId,
  };
}

function buildStore(
  storeNumber: string,
  km: number | null,
  parts: Record<string, PickupStatus>,
): StoreAvailability {
  return {
    storeNumber,
    name: storeNumber,
    city: null,
    state: null,
    country: 'CA',
    distance: km === null ? null : { value: km, unit: 'km' },
    latitude: null,
    longitude: null,
    parts: Object.entries(parts).map(([partNumber, status]) => ({
      partNumber,
      status,
      pickupQuote: null,
      productTitle: null,
      isPickEligible: null,
    })),
  };
}

function buildAnswer(observedAt: number, stores: StoreAvailability[]): PickupAnswer {
  return {
    location: null,
    stores,
    skippedStoreCount: 0,
    endpoint: 'fulfillment-messages',
    url: 'http://sim/',
    observedAt,
  };
}

describe('applying an upstream answer', () => {
  let testDb: TestDatabase;
  let neighbour: string;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await seedCatalog(testDb.db);
    const stores = await testDb.db
      .selectFrom('stores')
      .select('store_id')
      .where('country_locale', '=', 'en_CA')
      .where('store_id', '!=', GROUP.storeId)
      .execute();
    neighbour = stores[0].store_id;
    const user = await findOrCreateUserByIdentity(testDb.db, {
      issuer: 'https://idp.test/',
      subject: 'u',
      email: 'u@example.com',
    });
    await insertSearch(testDb.db, {
      user_id: user.id,
      product_type: GROUP.productId,
      store_id: GROUP.storeId,
    });
    await insertSearch(testDb.db, {
      user_id: user.id,
      product_type: GROUP.productId,
      store_id: neighbour,
    });
    await syncPollTargets(testDb.db, new Date(T0));
  });
  afterAll(async () => testDb.drop());

  it('files snapshots, history, neighbour distances in miles both ways, and coverage of every listed store', async () => {
    const report = await applyPickupAnswer(
      testDb.db,
      scopeAt(GROUP.storeId),
      buildAnswer(T0, [
        buildStore(GROUP.storeId, 0, { A: 'available', B: 'unavailable' }),
        buildStore(neighbour, 10, { A: 'unavailable', B: 'unknown' }),
        buildStore('R999999', 5, { A: 'available' }),
      ]),
      { quietWindowMs: 30 * 60_000 },
    );
    expect(report).toMatchObject({ storesSeen: 2, changes: 3, restocks: 1 });
    expect(await readSnapshotStatus(testDb.db, neighbour, 'B')).toBe('unknown');
    const distances = await testDb.db.selectFrom('store_neighbours').selectAll().execute();
    expect(
      distances.map((row) => [row.store_id, row.neighbour_store_id, row.distance_miles]).sort(),
    ).toEqual(
      [
        [GROUP.storeId, neighbour, 6.2],
        [neighbour, GROUP.storeId, 6.2],
      ].sort(),
    );
    const targets = await testDb.db
      .selectFrom('poll_targets')
      .select(['store_id', 'last_covered_at', 'last_requested_at'])
      .orderBy('store_id')
      .execute();
    expect(targets.every((target) => target.last_covered_at?.getTime() === T0)).toBe(true);
    expect(targets.every((target) => target.last_requested_at?.getTime() === T0)).toBe(true);
  });

  it('keeps the last known status for a part the answer could not tell about', async () => {
    const report = await applyPickupAnswer(
      testDb.db,
      scopeAt(GROUP.storeId),
      buildAnswer(T0 + 60_000, [buildStore(GROUP.storeId, 0, { A: 'unknown', B: 'unknown' })]),
      { quietWindowMs: 0 },
    );
    expect(report.changes).toBe(0);
    expect(await readSnapshotStatus(testDb.db, GROUP.storeId, 'A')).toBe('available');
    expect(await readSnapshotStatus(testDb.db, GROUP.storeId, 'B')).toBe('unavailable');
  });

  it('lets an unknown become known without inventing a previous status', async () => {
    await applyPickupAnswer(
      testDb.db,
      scopeAt(GROUP.storeId),
      buildAnswer(T0 + 120_000, [buildStore(neighbour, 10, { B: 'available' })]),
      { quietWindowMs: 0 },
    );
    const events = await testDb.db
      .selectFrom('availability_events')
      .select(['from_status', 'to_status'])
      .where('store_id', '=', neighbour)
      .where('part_number', '=', 'B')
      .execute();
    expect(events).toEqual([{ from_status: null, to_status: 'available' }]);
  });

  it('never lets an answer older than the snapshot rewind it', async () => {
    const report = await applyPickupAnswer(
      testDb.db,
      scopeAt(GROUP.storeId),
      buildAnswer(T0 - 60_000, [buildStore(GROUP.storeId, 0, { A: 'unavailable' })]),
      { quietWindowMs: 0 },
    );
    expect(report.changes).toBe(0);
    expect(await readSnapshotStatus(testDb.db, GROUP.storeId, 'A')).toBe('available');
  });

  it('records a change once when two answers listing the same store land at the same time', async () => {
    const answer = (at: number): PickupAnswer =>
      buildAnswer(at, [
        buildStore(GROUP.storeId, 0, { C: 'available' }),
        buildStore(neighbour, 10, { C: 'available' }),
      ]);
    await Promise.all([
      applyPickupAnswer(testDb.db, scopeAt(GROUP.storeId), answer(T0 + 300_000), {
        quietWindowMs: 0,
      }),
      applyPickupAnswer(testDb.db, scopeAt(neighbour), answer(T0 + 300_001), { quietWindowMs: 0 }),
    ]);
    const events = await testDb.db
      .selectFrom('availability_events')
      .select('store_id')
      .where('part_number', '=', 'C')
      .execute();
    expect(events.map((event) => event.store_id).sort()).toEqual([GROUP.storeId, neighbour].sort());
  });
});

describe('what an answer may file', () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await seedCatalog(testDb.db);
  });
  afterAll(async () => testDb.drop());

  it('files only the parts it was asked for and covers only the types asked in full', async () => {
    const user = await findOrCreateUserByIdentity(testDb.db, {
      issuer: 'https://idp.test/',
      subject: 'v',
      email: 'v@example.com',
    });
    await insertSearch(testDb.db, { user_id: user.id, product_type: 'iphone16', store_id: 'R121' });
    await insertSearch(testDb.db, {
      user_id: user.id,
      product_type: GROUP.productId,
      store_id: 'R121',
    });
    await syncPollTargets(testDb.db, new Date(T0));
    await applyPickupAnswer(
      testDb.db,
      {
        countryCode: 'CA',
        productByPart: new Map([
          ['P1', GROUP.productId],
          ['Q1', 'iphone16'],
        ]),
        coveredProductIds: [GROUP.productId],
        originStoreId: null,
      },
      buildAnswer(T0, [
        buildStore('R121', null, { P1: 'available', Q1: 'available', X: 'available' }),
      ]),
      { quietWindowMs: 0 },
    );
    expect(await readSnapshotStatus(testDb.db, 'R121', 'X')).toBeUndefined();
    expect(await readSnapshotStatus(testDb.db, 'R121', 'Q1')).toBe('available');
    const targets = await testDb.db
      .selectFrom('poll_targets')
      .select(['product_id', 'last_covered_at'])
      .orderBy('product_id')
      .execute();
    expect(targets).toEqual([
      { product_id: 'iphone16', last_covered_at: null },
      { product_id: GROUP.productId, last_covered_at: new Date(T0) },
    ]);
  });
});
