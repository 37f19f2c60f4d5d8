// What the watcher learns from Apple's answers, seen through the real API: a part ineligible at
// every store of two answers in a row is retired, so its search says "no longer sold" and
// never alerts; a store an answer lists that the catalog lacks is filed and can be searched;
// Apple Watch searches are not asked and never read unavailable. Against the simulator.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { productListSchema, storeListSchema } from '#shared/api/catalog.ts';
import { searchInventorySchema } from '#shared/api/inventory.ts';
import { isNoLongerSold } from '#renderer/components/search/no-longer-sold.tsx';
import { STORE_SEEDS } from '#shared/catalog/index.ts';
import { startApiHarness, type ApiHarness, type TestUser } from '#tests/helpers/api-harness.ts';
import { listSeedParts, listSeedStores, startWatchHarness, type WatchHarness } from './support.ts';

const MINUTE = 60_000;

describe('what the watcher learns from answers, through the API', () => {
  let api: ApiHarness;
  let watch: WatchHarness;
  let alice: TestUser;

  // Each test on a database of its own: one files stores, another retires a part.
  beforeEach(async () => {
    api = await startApiHarness();
    alice = await api.createUser('alice', 'best');
    watch = await startWatchHarness({ testDb: api.testDb });
  });
  afterEach(async () => {
    await watch.close();
    await api.close();
  });

  async function readProducts() {
    const response = await api.call({ method: 'GET', url: '/v2/products' });
    expect(response.statusCode, response.body).toBe(200);
    return productListSchema.parse(response.json());
  }

  async function readStores() {
    const response = await api.call({ method: 'GET', url: '/v2/stores' });
    expect(response.statusCode, response.body).toBe(200);
    return storeListSchema.parse(response.json());
  }

  it('shows "no longer sold" on the search of a part ineligible at every store of two answers, which then never alerts', async () => {
    const [part] = listSeedParts('US', 'applepencilusbcadapter');
    expect(listSeedParts('US', 'applepencilusbcadapter')).toHaveLength(1);
    for (const storeId of listSeedStores('en_US'))
      watch.simulator.setStatus(storeId, part, 'ineligible');
    const search = await watch.createSearch(alice.user, {
      productId: 'applepencilusbcadapter',
      storeId: 'R095',
      preferred: [part],
    });
    const r095 = (await readStores()).find((store) => store.store_id === 'R095')!;

    await watch.runCycle();
    // One answer could be a glitch: still sold.
    expect(isNoLongerSold('applepencilusbcadapter', await readProducts(), r095)).toBe(false);
    watch.advance(MINUTE);
    await watch.runCycle();
    const products = await readProducts();
    // Sold in the US only, the type is now sold nowhere: the list no longer offers it.
    const sold = products.find((product) => product.product_id === 'applepencilusbcadapter');
    expect(sold?.sold_in ?? []).not.toContain('US');
    expect(isNoLongerSold('applepencilusbcadapter', products, r095)).toBe(true);
    const card = await api.call({ method: 'GET', url: `/v2/searches/${search.id}`, as: alice });
    expect(card.statusCode, card.body).toBe(200);

    // Back on a shelf, it is not asked for: no alert.
    watch.simulator.setStatus('R095', part, 'available');
    watch.advance(MINUTE);
    const after = await watch.runCycle();
    expect(after).toMatchObject({ requests: 0, alertsEnqueued: 0 });
    const outbox = await watch.db.selectFrom('alert_outbox').selectAll().execute();
    expect(outbox).toEqual([]);
  });

  it('files a store an answer lists that the catalog lacks, and lets it be searched', async () => {
    const seeded = STORE_SEEDS.find((store) => store.store_id === 'R032')!;
    await watch.db.deleteFrom('stores').where('store_id', '=', 'R032').execute();
    expect((await readStores()).map((store) => store.store_id)).not.toContain('R032');
    await watch.createSearch(alice.user, {
      productId: 'iphone18pro',
      storeId: 'R095',
      preferred: [],
    });

    await watch.runCycle();
    const filed = await watch.db
      .selectFrom('stores')
      .selectAll()
      .where('store_id', '=', 'R032')
      .executeTakeFirstOrThrow();
    expect(filed).toMatchObject({
      store_name: seeded.store_name,
      city: seeded.city,
      country_locale: 'en_US',
      postal_code: seeded.postal_code,
      time_zone: 'America/New_York',
    });
    expect(filed.latitude).toBeCloseTo(seeded.latitude, 3);
    expect(filed.longitude).toBeCloseTo(seeded.longitude, 3);
    const snapshots = await watch.db
      .selectFrom('availability_snapshots')
      .select('part_number')
      .where('store_id', '=', 'R032')
      .execute();
    expect(snapshots).toHaveLength(listSeedParts('US', 'iphone18pro').length);

    expect((await readStores()).map((store) => store.store_id)).toContain('R032');
    const created = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: alice,
      body: { product_type: 'iphone18pro', store_id: 'R032' },
    });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('does not ask Apple Watch types and never shows them unavailable: their status stays unknown', async () => {
    const search = await watch.createSearch(alice.user, {
      productId: 'applewatchultra',
      storeId: 'R095',
      preferred: [],
    });
    expect(await watch.runCycle()).toMatchObject({ targets: 0, requests: 0 });
    watch.advance(MINUTE);
    expect(await watch.runCycle()).toMatchObject({ requests: 0 });
    const response = await api.call({
      method: 'GET',
      url: `/v2/searches/${search.id}/inventory`,
      as: alice,
    });
    expect(response.statusCode, response.body).toBe(200);
    const inventory = searchInventorySchema.parse(response.json());
    expect(inventory).toMatchObject({ stores: [], last_checked_at: null });
    expect(inventory.is_stale ?? false).toBe(false);
  });
});
