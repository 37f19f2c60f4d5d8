import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogRows } from '#server/db/repositories/catalog-changes-repository.ts';
import { ModelSyncError, syncModelsFromBuyPages } from '#server/catalog/sync-models.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startSimulatorHarness, type SimulatorHarness } from '#tests/server/simulator/support.ts';

const TODAY = '2026-11-25';

describe('catalog sync-models against the simulator’s buy pages', () => {
  let testDb: TestDatabase;
  let simulator: SimulatorHarness;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await seedCatalog(testDb.db);
    simulator = await startSimulatorHarness();
  });
  afterAll(async () => {
    await simulator?.close();
    await testDb?.drop();
  });

  async function findModel(country: string, part: string) {
    const { models } = await readCatalogRows(testDb.db);
    return models.find((m) => m.country_code === country && m.part_number === part);
  }
  async function findType(productId: string) {
    const { types } = await readCatalogRows(testDb.db);
    return types.find((type) => type.product_id === productId);
  }
  const sync = (options: { fetchPage?: typeof fetch; isDryRun?: boolean } = {}) =>
    syncModelsFromBuyPages(testDb.db, {
      baseUrl: simulator.simulator.url,
      today: TODAY,
      ...options,
    });

  it('changes nothing when the pages offer what the catalog has, Mac pages read without metrics', async () => {
    const result = await sync();
    expect(result.pages.length).toBeGreaterThan(10);
    const urls = result.pages.map((page) => page.url.replace(simulator.simulator.url, ''));
    expect(urls).toEqual(
      expect.arrayContaining(['/shop/buy-iphone/iphone-18-pro', '/shop/buy-mac/mac-mini']),
    );
    // The retired iPhone 17 Pro page is not read at all.
    expect(urls.some((url) => url.endsWith('/shop/buy-iphone/iphone-17-pro'))).toBe(false);
    expect(result.summary).toMatchObject({ partsAdded: [], partsRetired: [], partsChanged: [] });
    expect(result).toMatchObject({ problems: [], warnings: [], pagesRetired: [], skipped: [] });
  });

  it('adds a model a page lists and the catalog lacked, and retires one no page lists', async () => {
    await testDb.db.deleteFrom('product_models').where('part_number', '=', 'MJQ34LL/A').execute();
    const unlisted = await simulator.control('POST', '/_sim/buy-page', {
      country: 'US',
      part_number: 'MJW44LL/A',
      listed: false,
    });
    expect(unlisted.status).toBe(200);

    const dryRun = await sync({ isDryRun: true });
    expect(dryRun.isApplied).toBe(false);
    expect(await findModel('US', 'MJQ34LL/A')).toBeUndefined();

    const result = await sync();
    expect(result.summary.partsAdded).toEqual(['MJQ34LL/A (US, iPhone 18 Pro 256GB Black)']);
    expect(result.summary.partsRetired).toEqual(['MJW44LL/A (US, iPhone 18 Pro Max 256GB Black)']);
    expect(await findModel('US', 'MJQ34LL/A')).toMatchObject({
      product_id: 'iphone18pro',
      display_name: 'iPhone 18 Pro 256GB Black',
      retired_on: null,
    });
    expect((await findModel('US', 'MJQ34LL/A'))?.source).toContain(
      '/shop/buy-iphone/iphone-18-pro',
    );
    expect(await findModel('US', 'MJW44LL/A')).toMatchObject({ retired_on: TODAY });
    // The same model stays sold in Canada, whose page still lists it.
    expect(await findModel('CA', 'MJX54VC/A')).toMatchObject({ retired_on: null });

    await simulator.control('POST', '/_sim/buy-page', {
      country: 'US',
      part_number: 'MJW44LL/A',
      listed: true,
    });
    const back = await sync();
    expect(back.summary.partsReturned).toEqual(['MJW44LL/A (US, iPhone 18 Pro Max 256GB Black)']);
  });

  it('names parts from the selection data alone, in either layout, Macs from their dimensions', async () => {
    await simulator.control('POST', '/_sim/buy-page-settings', {
      shape: 'selection',
      layout: 'array',
    });
    await testDb.db
      .deleteFrom('product_models')
      .where('part_number', 'in', ['MJQ34LL/A', 'MWUF3LL/A'])
      .execute();
    const result = await sync();
    expect(result.summary.partsAdded).toEqual([
      'MJQ34LL/A (US, iPhone 18 Pro 256GB Black)',
      'MWUF3LL/A (US, iMac 24-inch M4 8-core)',
    ]);
    expect(result.summary.partsChanged).toEqual([]);
    await simulator.control('POST', '/_sim/buy-page-settings', { shape: 'both', layout: 'object' });
    expect((await sync()).summary).toMatchObject({ partsAdded: [], partsChanged: [] });
    await simulator.control('POST', '/_sim/buy-page-settings', { layout: 'by-page' });
  });

  it('reports a page that yields no products by name and still applies the other pages', async () => {
    await testDb.db.deleteFrom('product_models').where('part_number', '=', 'MJQ34LL/A').execute();
    const emptyDuoPages: typeof fetch = async (input, init) =>
      String(input instanceof Request ? input.url : input).includes('iphone-duo')
        ? new Response('<html><title>iPhone Duo</title></html>', { status: 200 })
        : await fetch(input, init);
    const result = await sync({ fetchPage: emptyDuoPages });
    expect(result.problems).toHaveLength(4);
    expect(result.problems[0]).toMatch(
      /\/shop\/buy-iphone\/iphone-duo: no products \(it carries neither PRODUCT_SELECTION_BOOTSTRAP nor script#metrics\)$/,
    );
    expect(result.summary.partsAdded).toEqual(['MJQ34LL/A (US, iPhone 18 Pro 256GB Black)']);
    // A page that was not read speaks for nothing: its models are not retired.
    expect(result.summary.partsRetired).toEqual([]);
    const logged = await testDb.db
      .selectFrom('catalog_changes')
      .selectAll()
      .where('kind', '=', 'sync')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(logged).toMatchObject({ is_ok: true, summary: { problems: result.problems } });
  });

  it('keeps a page that redirects in some countries only, and says so', async () => {
    const ukRedirects: typeof fetch = async (input, init) =>
      String(input instanceof Request ? input.url : input).endsWith(
        '/uk/shop/buy-iphone/iphone-duo',
      )
        ? new Response(null, { status: 301, headers: { location: '/uk/iphone/' } })
        : await fetch(input, init);
    const result = await sync({ fetchPage: ukRedirects });
    expect(result.pagesRetired).toEqual([]);
    expect(result.problems).toEqual([
      expect.stringMatching(
        /\/uk\/shop\/buy-iphone\/iphone-duo: redirected \(301\) to http:\/\/localhost:\d+\/uk\/iphone\/; the page is kept since it did not redirect in AE, CA, US$/,
      ),
    ]);
    expect((await findType('iphoneduo'))?.buy_page).toBe('/shop/buy-iphone/iphone-duo');
  });

  it('retires a page that redirects everywhere: reported, its models kept, not read again', async () => {
    await simulator.control('POST', '/_sim/buy-page-settings', {
      page: '/shop/buy-iphone/iphone-duo',
      retired: true,
    });
    const result = await sync();
    expect(result.pagesRetired).toEqual([
      '/shop/buy-iphone/iphone-duo: redirects (301) in AE (to /ae/iphone/), CA (to /ca/iphone/), GB (to /uk/iphone/), US (to /iphone/)',
    ]);
    expect(result.problems).toEqual([]);
    expect(result.summary.typesChanged).toEqual(['iphoneduo: buy_page']);
    expect(result.summary.partsRetired).toEqual([]);
    expect(await findType('iphoneduo')).toMatchObject({ buy_page: null, retired_on: null });
    expect(await findModel('US', 'MK1E4LL/A')).toMatchObject({ retired_on: null });

    const again = await sync();
    expect(again.pagesRetired).toEqual([]);
    expect(again.pages.some((page) => page.url.includes('iphone-duo'))).toBe(false);
    await simulator.control('POST', '/_sim/buy-page-settings', {
      page: '/shop/buy-iphone/iphone-duo',
      retired: false,
    });
  });

  it('fails as a whole, changing nothing, when no page can be read', async () => {
    const before = await readCatalogRows(testDb.db);
    const busy: typeof fetch = async () => new Response('busy', { status: 503 });
    const failure = await sync({ fetchPage: busy }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelSyncError);
    expect((failure as ModelSyncError).problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/\/shop\/buy-mac\/imac: HTTP 503$/)]),
    );
    expect(await readCatalogRows(testDb.db)).toEqual(before);
    const logged = await testDb.db
      .selectFrom('catalog_changes')
      .selectAll()
      .where('kind', '=', 'sync')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(logged).toMatchObject({ is_ok: false });
  });
});
