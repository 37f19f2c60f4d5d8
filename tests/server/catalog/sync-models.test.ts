import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogRows } from '#server/db/repositories/catalog-changes-repository.ts';
import type { CatalogTypeRow } from '#shared/catalog/catalog-diff.ts';
import {
  ModelSyncError,
  matchProductType,
  planBuyPageVisits,
  syncModelsFromBuyPages,
} from '#server/catalog/sync-models.ts';
import { PRODUCT_MODEL_SEEDS, PRODUCT_TYPE_SEEDS } from '#shared/catalog/models.ts';
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

  it('changes nothing when the pages offer what the catalog has', async () => {
    const result = await syncModelsFromBuyPages(testDb.db, {
      baseUrl: simulator.simulator.url,
      today: TODAY,
    });
    expect(result.pages.length).toBeGreaterThan(10);
    expect(result.pages.some((page) => page.url.endsWith('/shop/buy-iphone/iphone-18-pro'))).toBe(
      true,
    );
    expect(result.summary.partsAdded).toEqual([]);
    expect(result.summary.partsRetired).toEqual([]);
    expect(result.skipped).toEqual([]);
  });

  it('adds a model a page lists and the catalog lacked, and retires one no page lists', async () => {
    await testDb.db.deleteFrom('product_models').where('part_number', '=', 'MJQ34LL/A').execute();
    const unlisted = await simulator.control('POST', '/_sim/buy-page', {
      country: 'US',
      part_number: 'MJW44LL/A',
      listed: false,
    });
    expect(unlisted.status).toBe(200);

    const dryRun = await syncModelsFromBuyPages(testDb.db, {
      baseUrl: simulator.simulator.url,
      today: TODAY,
      isDryRun: true,
    });
    expect(dryRun.isApplied).toBe(false);
    expect(await findModel('US', 'MJQ34LL/A')).toBeUndefined();

    const result = await syncModelsFromBuyPages(testDb.db, {
      baseUrl: simulator.simulator.url,
      today: TODAY,
    });
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
    const back = await syncModelsFromBuyPages(testDb.db, {
      baseUrl: simulator.simulator.url,
      today: TODAY,
    });
    expect(back.summary.partsReturned).toEqual(['MJW44LL/A (US, iPhone 18 Pro Max 256GB Black)']);
  });

  it('reads names from the product selection data alone', async () => {
    await simulator.control('POST', '/_sim/buy-page', {
      country: 'US',
      part_number: 'MJQ34LL/A',
      listed: true,
      shape: 'selection',
    });
    await testDb.db.deleteFrom('product_models').where('part_number', '=', 'MJQ34LL/A').execute();
    const result = await syncModelsFromBuyPages(testDb.db, {
      baseUrl: simulator.simulator.url,
      today: TODAY,
    });
    expect(result.summary.partsAdded).toEqual(['MJQ34LL/A (US, iPhone 18 Pro 256GB Black)']);
    await simulator.control('POST', '/_sim/buy-page', {
      country: 'US',
      part_number: 'MJQ34LL/A',
      listed: true,
      shape: 'both',
    });
  });

  it('fails loudly and changes nothing when a page yields no products', async () => {
    const before = await readCatalogRows(testDb.db);
    const emptyPages: typeof fetch = async (input) =>
      (input instanceof Request ? input.url : input.toString()).includes('iphone-duo')
        ? new Response('<html><title>iPhone Duo</title></html>', { status: 200 })
        : await fetch(input);
    const failure = await syncModelsFromBuyPages(testDb.db, {
      baseUrl: simulator.simulator.url,
      fetchPage: emptyPages,
      today: TODAY,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelSyncError);
    expect((failure as ModelSyncError).problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /\/shop\/buy-iphone\/iphone-duo: no products \(it carries neither PRODUCT_SELECTION_BOOTSTRAP nor script#metrics\)$/,
        ),
      ]),
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

describe('shelfwatch catalog sync-models on the command line', () => {
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

  async function runCli(args: string[]) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      env: {
        ...process.env,
        DATABASE_URL: testDb.url,
        UPSTREAM_BASE_URL: simulator.simulator.url,
        CATALOG_SYNC_PAGE_INTERVAL_SECONDS: '0',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { code, stdout, stderr };
  }

  it('adds a model the simulator’s page lists and the catalog lacked, and retires one it no longer lists', async () => {
    await testDb.db.deleteFrom('product_models').where('part_number', '=', 'MK1F4LL/A').execute();
    await simulator.control('POST', '/_sim/buy-page', {
      country: 'CA',
      part_number: 'MJR54VC/A',
      listed: false,
    });
    const dryRun = await runCli(['catalog', 'sync-models', '--dry-run']);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain('Dry run: nothing was changed.');

    const result = await runCli(['catalog', 'sync-models']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Read \d+ buy pages from http:\/\/localhost:\d+\.$/m);
    expect(result.stdout).toContain(
      'Parts added (1):\n  MK1F4LL/A (US, iPhone Duo 256GB Night Sky)\n',
    );
    expect(result.stdout).toContain(
      'Parts retired (1):\n  MJR54VC/A (CA, iPhone 18 Pro 256GB Black)\n',
    );
    expect(result.stdout).toContain('Applied.');
  }, 60_000);

  it('fails loudly, naming the page, when the store answers no products', async () => {
    const result = await runCli([
      'catalog',
      'sync-models',
      '--base-url',
      `${simulator.simulator.url}/nowhere`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Model sync failed; nothing was changed:');
    expect(result.stderr).toMatch(/\/nowhere\/shop\/buy-iphone\/iphone-18-pro: HTTP 404/);
  }, 60_000);
});

describe('matchProductType', () => {
  const type = (product_id: string, product_name: string): CatalogTypeRow => ({
    product_id,
    product_name,
    family: 'phone-modern',
    sort_order: 1,
    launched_on: null,
    retired_on: null,
    buy_page: '/shop/buy-iphone/iphone-18-pro',
  });
  const pro = type('iphone18pro', 'iPhone 18 Pro');
  const proMax = type('iphone18promax', 'iPhone 18 Pro Max');
  const product = (name: string | null, familyType: string | null = null) => ({
    partNumber: 'MJQ34LL/A',
    name,
    familyType,
    capacity: null,
    color: null,
  });

  it('takes Apple’s family key, else the longest type name the product’s name starts with', () => {
    expect(matchProductType(product(null, 'iphone18promax'), [pro, proMax])).toBe(proMax);
    expect(matchProductType(product('iPhone 18 Pro Max 256GB Black'), [pro, proMax])).toBe(proMax);
    expect(matchProductType(product('iPhone 18 Pro 256GB Black'), [pro, proMax])).toBe(pro);
  });

  it('falls back to a page’s only type and leaves a shared page’s unclear product unmatched', () => {
    expect(matchProductType(product('Something 256GB'), [pro])).toBe(pro);
    expect(matchProductType(product('Something 256GB'), [pro, proMax])).toBeUndefined();
  });
});

describe('planBuyPageVisits over the bundled catalog', () => {
  const types: CatalogTypeRow[] = PRODUCT_TYPE_SEEDS.map((type) => ({
    product_id: type.product_id,
    product_name: type.product_name,
    family: type.family,
    sort_order: type.sort_order,
    launched_on: type.launched_on ?? null,
    retired_on: type.retired_on ?? null,
    buy_page: type.buy_page ?? null,
  }));
  const models = PRODUCT_MODEL_SEEDS.map((model) => ({
    ...model,
    source: model.source ?? '',
    retired_on: model.retired_on ?? null,
  }));
  const visits = planBuyPageVisits('http://127.0.0.1:4010', types, models);
  const visited = (productId: string) =>
    visits
      .filter((visit) => visit.types.some((type) => type.product_id === productId))
      .map((visit) => visit.countryCode);

  it('leaves AirPods and Watch out: the research records no buy page for them (docs/catalog.md)', () => {
    const unsynced = types.filter((type) =>
      ['earbuds', 'headphones', 'watch'].includes(type.family),
    );
    expect(unsynced.map((type) => type.buy_page)).toEqual(unsynced.map(() => null));
    // AirPods Pro 3 is on sale in the US, yet no page is read for it.
    expect(models.some((m) => m.product_id === 'airpodspro' && m.retired_on === null)).toBe(true);
    expect(visited('airpodspro')).toEqual([]);
  });

  it('reads a type’s page only in the countries where it is still sold', () => {
    expect(visited('iphone17pro')).toContain('AU');
    expect(visited('iphone17pro')).not.toContain('US');
    expect(visited('iphone18pro')).toEqual(['CA', 'GB', 'US']);
  });
});
