import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRY_SEEDS, STORE_SEEDS, parseStoreDirectory } from '#shared/catalog/index.ts';
import { startSimulatorHarness, type SimulatorHarness } from './support.ts';

// The simulator's store directory: Apple's rsp-web/store-list format read back by the
// product's own parser, a 404 for Thailand-like locales, and stores listed and taken off
// through the control API.

const US_STORES = STORE_SEEDS.filter((store) => store.country_locale === 'en_US');
const NEW_STORE = {
  store_name: 'Test Harbour',
  country_locale: 'en_US',
  city: 'Testville',
  address1: '1 Test Street',
  store_slug: 'testharbour',
  state_code: 'NY',
  state_name: 'New York',
  postal_code: '10999',
};

describe('the simulator’s rsp-web/store-list', () => {
  let harness: SimulatorHarness;
  beforeAll(async () => {
    harness = await startSimulatorHarness();
  });
  afterAll(async () => harness.close());

  async function readDirectory(locale: string) {
    const answer = await harness.getFrom(`/rsp-web/store-list?locale=${locale}`);
    expect(answer.status, locale).toBe(200);
    return JSON.parse(answer.text) as { storeListData: { locale: string; calledLocale: string }[] };
  }

  it('lists every seeded store of the asked locale first, then the other locales, in Apple’s format', async () => {
    const json = await readDirectory('en_US');
    expect(json.storeListData[0]).toMatchObject({ locale: 'en_US', calledLocale: 'en_US' });
    const parsed = parseStoreDirectory(json);
    expect(parsed.skipped).toEqual([]);
    const us = parsed.stores.filter((store) => store.country_locale === 'en_US');
    expect(us.map((store) => store.store_id).sort()).toEqual(
      US_STORES.map((store) => store.store_id).sort(),
    );
    const fifth = us.find((store) => store.store_id === US_STORES[0].store_id);
    expect(fifth).toMatchObject({
      store_name: US_STORES[0].store_name,
      city: US_STORES[0].city,
      store_slug: US_STORES[0].store_slug,
    });
    // Other locales come along, each named with the asked language, as en_US's capture does.
    const other = json.storeListData.find((entry) => entry.locale !== 'en_US');
    expect(other?.calledLocale).toBe(`en_${other?.locale.slice(-2)}`);
  });

  it('answers 404 for Thailand by default and for a locale set missing, leaving it out of the others', async () => {
    expect((await harness.getFrom('/rsp-web/store-list?locale=th_TH')).status).toBe(404);
    expect((await harness.getFrom('/rsp-web/store-list?locale=xx')).status).toBe(404);
    const missing = COUNTRY_SEEDS.find((country) => country.country_code !== 'US')!.locale_code;
    const set = await harness.control('POST', '/_sim/store-list-settings', {
      locale: missing,
      missing: true,
    });
    expect(set.status).toBe(200);
    expect((set.json as { missing_locales: string[] }).missing_locales).toContain(missing);
    expect((await harness.getFrom(`/rsp-web/store-list?locale=${missing}`)).status).toBe(404);
    const locales = (await readDirectory('en_US')).storeListData.map((entry) => entry.locale);
    expect(locales).not.toContain(missing);
    expect(locales).not.toContain('th_TH');
    await harness.control('POST', '/_sim/store-list-settings', { locale: missing, missing: false });
    expect((await harness.getFrom(`/rsp-web/store-list?locale=${missing}`)).status).toBe(200);
  });

  it('takes a store off, lists a new one and puts the first back through the control API', async () => {
    const gone = US_STORES[0].store_id;
    expect(
      (await harness.control('POST', '/_sim/store-list', { store_id: gone, listed: false })).status,
    ).toBe(200);
    const added = await harness.control('POST', '/_sim/store-list', {
      store_id: 'R9999',
      listed: true,
      store: NEW_STORE,
    });
    expect(added.status).toBe(200);
    let ids = parseStoreDirectory(await readDirectory('en_US')).stores.map((s) => s.store_id);
    expect(ids).not.toContain(gone);
    expect(ids).toContain('R9999');

    expect(
      (await harness.control('POST', '/_sim/store-list', { store_id: gone, listed: true })).status,
    ).toBe(200);
    ids = parseStoreDirectory(await readDirectory('en_US')).stores.map((s) => s.store_id);
    expect(ids).toContain(gone);
  });

  it('refuses a bad control body naming the field, and an unknown store with 404', async () => {
    const bad = await harness.control('POST', '/_sim/store-list', { store_id: 'X1', listed: true });
    expect(bad).toMatchObject({ status: 400, json: { field: 'store_id' } });
    const noLocale = await harness.control('POST', '/_sim/store-list', {
      store_id: 'R9998',
      listed: true,
      store: { ...NEW_STORE, country_locale: 'usa' },
    });
    expect(noLocale).toMatchObject({ status: 400, json: { field: 'store.country_locale' } });
    const unknown = await harness.control('POST', '/_sim/store-list', {
      store_id: 'R9997',
      listed: false,
    });
    expect(unknown).toMatchObject({ status: 404, json: { field: 'store_id' } });
  });
});
