import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogRows } from '#server/db/repositories/catalog-changes-repository.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startSimulatorHarness, type SimulatorHarness } from '#tests/server/simulator/support.ts';

// `shelfwatch catalog sync-models` (bin/shelfwatch.js runs server/cli.ts) against the simulator,
// whose buy pages are written as Apple writes them: unquoted and array layouts, Mac pages
// without metrics, display values in HTML.

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

  it('retires a buy page that redirects, printing it, and keeps the page’s models', async () => {
    await simulator.control('POST', '/_sim/buy-page-settings', {
      page: '/shop/buy-mac/mac-studio',
      retired: true,
    });
    const result = await runCli(['catalog', 'sync-models']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'Buy pages retired, no longer read (1):\n  /shop/buy-mac/mac-studio: redirects (301) in US (to /mac/)\n',
    );
    expect(result.stdout).toContain('Product types changed (1):\n  macstudio: buy_page\n');
    const { types, models } = await readCatalogRows(testDb.db);
    expect(types.find((type) => type.product_id === 'macstudio')?.buy_page).toBeNull();
    expect(models.find((model) => model.part_number === 'MHL64LL/A')?.retired_on).toBeNull();
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
