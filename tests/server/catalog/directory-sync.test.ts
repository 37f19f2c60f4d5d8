import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ANSWER_ONLY_STORE_IDS,
  COUNTRY_SEEDS,
  PRODUCT_MODEL_SEEDS,
  STORE_SEEDS,
} from '#shared/catalog/index.ts';
import { publicWatchStatusSchema } from '#shared/api/watch.ts';
import { AppError } from '#server/base/app-error.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { readDirectorySyncStatus } from '#server/catalog/directory-status.ts';
import { describeDirectorySync, syncStoreDirectory } from '#server/catalog/directory-sync.ts';
import {
  insertLearnedStores,
  listStorePlaces,
} from '#server/db/repositories/catalog-repository.ts';
import { fillStoreCoordinates } from '#server/db/repositories/store-directory-repository.ts';
import { requireCatalogEntries } from '#server/searches/search-choices.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startSimulatorHarness, type SimulatorHarness } from '#tests/server/simulator/support.ts';

// `catalog sync-stores` against the simulator's rsp-web/store-list: what it adds, closes and
// reopens per country, a 404 locale skipped and reported, and closed stores kept for the
// searches that watch them but refused for new ones.

const TODAY = '2026-11-25';
const NOW = Date.parse(`${TODAY}T09:00:00Z`);
const US = COUNTRY_SEEDS.find((country) => country.country_code === 'US')!;
const OTHER = COUNTRY_SEEDS.find(
  (country) =>
    country.country_code !== 'US' &&
    STORE_SEEDS.some((store) => store.country_locale === country.locale_code),
)!;
const US_STORE = STORE_SEEDS.find((store) => store.country_locale === US.locale_code)!;
const OTHER_STORE = STORE_SEEDS.find((store) => store.country_locale === OTHER.locale_code)!;
const US_PRODUCT = PRODUCT_MODEL_SEEDS.find(
  (model) => model.country_code === 'US' && (model.retired_on ?? null) === null,
)!.product_id;

describe('the store directory sync against the simulator', () => {
  let testDb: TestDatabase;
  let harness: SimulatorHarness;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await seedCatalog(testDb.db);
    harness = await startSimulatorHarness();
  });
  afterAll(async () => {
    await harness?.close();
    await testDb?.drop();
  });
  beforeEach(async () => {
    await harness.control('POST', '/_sim/store-list-settings', {
      locale: OTHER.locale_code,
      missing: false,
    });
  });

  const sync = (countryCodes = [US.country_code, OTHER.country_code]) =>
    syncStoreDirectory(testDb.db, {
      baseUrl: harness.simulator.url,
      countryCodes,
      now: () => NOW,
    });
  const findStore = (storeId: string) =>
    testDb.db.selectFrom('stores').selectAll().where('store_id', '=', storeId).executeTakeFirst();

  it('changes nothing when the directory lists what the seed has', async () => {
    const result = await sync();
    expect(result.countries.map((entry) => [entry.countryCode, entry.outcome])).toEqual(
      [
        [OTHER.country_code, 'read'],
        [US.country_code, 'read'],
      ].sort(),
    );
    for (const entry of result.countries) {
      expect(entry).toMatchObject({ added: [], closed: [], reopened: [], problem: null });
      expect(entry.listed).toBeGreaterThan(0);
    }
  });

  it('adds a new store, closes one no longer listed and reports both', async () => {
    await harness.control('POST', '/_sim/store-list', {
      store_id: 'R9999',
      listed: true,
      store: {
        store_name: 'Test Harbour',
        country_locale: US.locale_code,
        city: 'Testville',
        address1: '1 Test Street',
        store_slug: 'testharbour',
        state_code: 'NY',
        state_name: 'New York',
      },
    });
    await harness.control('POST', '/_sim/store-list', {
      store_id: US_STORE.store_id,
      listed: false,
    });
    const before = await findStore(US_STORE.store_id);

    const result = await sync();
    const us = result.countries.find((entry) => entry.countryCode === 'US');
    expect(us).toMatchObject({ added: ['R9999'], closed: [US_STORE.store_id], reopened: [] });
    expect(describeDirectorySync(result)).toContain(
      `US (${US.locale_code}): ${us!.listed} listed; added R9999; closed ${US_STORE.store_id}`,
    );
    // The new store has no coordinates until an answer gives them; the closed one keeps its own.
    expect(await findStore('R9999')).toMatchObject({ latitude: null, closed_on: null });
    expect(await findStore(US_STORE.store_id)).toMatchObject({
      closed_on: TODAY,
      latitude: before?.latitude,
      longitude: before?.longitude,
    });
    const place = (await listStorePlaces(testDb.db)).find(
      (row) => row.store_id === US_STORE.store_id,
    );
    expect(place?.store_name).toBe(`${US_STORE.store_name} (closed)`);
  });

  it('gives a directory store the coordinates an answer lists it with, and no other store', async () => {
    const before = await findStore(US_STORE.store_id);
    await fillStoreCoordinates(testDb.db, [
      { storeNumber: 'R9999', latitude: 40.5, longitude: -73.9, timeZone: 'America/New_York' },
      { storeNumber: US_STORE.store_id, latitude: 1, longitude: 2, timeZone: null },
    ]);
    expect(await findStore('R9999')).toMatchObject({
      latitude: 40.5,
      longitude: -73.9,
      time_zone: 'America/New_York',
    });
    expect(await findStore(US_STORE.store_id)).toMatchObject({
      latitude: before?.latitude,
      longitude: before?.longitude,
    });
  });

  it('keeps a closed store for its searches and refuses it for new ones, naming the field', async () => {
    const refused = await requireCatalogEntries(testDb.db, US_PRODUCT, US_STORE.store_id, {
      isNewChoice: true,
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 400, field: 'store_id' });
    expect((refused as AppError).reason).toContain('closed on');
    // An existing search's edit that keeps its store still passes.
    await expect(
      requireCatalogEntries(testDb.db, US_PRODUCT, US_STORE.store_id, {
        isNewChoice: true,
        isNewStore: false,
      }),
    ).resolves.toEqual({ countryCode: 'US' });
  });

  it('skips and reports a locale answering 404, closing none of its stores, nor learned ones', async () => {
    await harness.control('POST', '/_sim/store-list-settings', {
      locale: OTHER.locale_code,
      missing: true,
    });
    await harness.control('POST', '/_sim/store-list', {
      store_id: OTHER_STORE.store_id,
      listed: false,
    });
    await insertLearnedStores(testDb.db, [
      {
        store_id: 'R9998',
        store_name: 'Learned Mall',
        country_locale: US.locale_code,
        city: 'Answertown',
        state_code: null,
        state_name: null,
        address1: 'Learned Mall',
        address2: null,
        postal_code: null,
        telephone: null,
        store_slug: null,
        latitude: 40.1,
        longitude: -74.2,
      },
    ]);

    const result = await sync();
    const other = result.countries.find((entry) => entry.countryCode === OTHER.country_code);
    expect(other).toMatchObject({ outcome: 'not_listed', httpStatus: 404, closed: [] });
    expect(describeDirectorySync(result)).toContain(
      `${OTHER.country_code} (${OTHER.locale_code}): skipped, HTTP 404: no directory for this locale`,
    );
    expect(await findStore(OTHER_STORE.store_id)).toMatchObject({ closed_on: null });
    expect(await findStore('R9998')).toMatchObject({ closed_on: null, is_learned: true });
    const us = result.countries.find((entry) => entry.countryCode === 'US');
    expect(us?.closed).toEqual([]);
  });

  it('reopens a closed store the directory lists again', async () => {
    await harness.control('POST', '/_sim/store-list', {
      store_id: US_STORE.store_id,
      listed: true,
    });
    const result = await sync([US.country_code]);
    expect(result.countries[0]).toMatchObject({ reopened: [US_STORE.store_id], closed: [] });
    expect(await findStore(US_STORE.store_id)).toMatchObject({ closed_on: null });
  });

  it('keeps a seed store the directory never listed open when its country is read without it', async () => {
    const answerOnly = STORE_SEEDS.find((store) => ANSWER_ONLY_STORE_IDS.has(store.store_id))!;
    const country = COUNTRY_SEEDS.find((entry) => entry.locale_code === answerOnly.country_locale)!;
    expect(await findStore(answerOnly.store_id)).toMatchObject({ is_learned: true });
    await harness.control('POST', '/_sim/store-list', {
      store_id: answerOnly.store_id,
      listed: false,
    });
    const result = await sync([country.country_code]);
    expect(result.countries[0]).toMatchObject({ outcome: 'read', closed: [] });
    expect(await findStore(answerOnly.store_id)).toMatchObject({ closed_on: null });
    // A later start keeps it answer-only rather than turning it into a directory store.
    await seedCatalog(testDb.db);
    expect(await findStore(answerOnly.store_id)).toMatchObject({ is_learned: true });
  });

  it('shows the last read per country on the status, its error only to the operator', async () => {
    const status = await readDirectorySyncStatus(testDb.db);
    const other = status.find((entry) => entry.country_code === OTHER.country_code);
    expect(other).toMatchObject({ outcome: 'not_listed', http_status: 404 });
    expect(other?.error).toContain('404');
    expect(other?.last_success_at).not.toBeNull();
    const us = status.find((entry) => entry.country_code === 'US');
    expect(us).toMatchObject({ outcome: 'read', reopened: [US_STORE.store_id] });

    const publicView = publicWatchStatusSchema.parse({
      view: 'public',
      is_delayed: false,
      checked_at: new Date(NOW).toISOString(),
      countries: [],
      invalid_parts: [],
      freshness: null,
      directory_sync: status,
    });
    expect(publicView.directory_sync?.[0]).not.toHaveProperty('error');
  });
});
