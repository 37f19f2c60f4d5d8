import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRY_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startSimulatorHarness, type SimulatorHarness } from '#tests/server/simulator/support.ts';

// `shelfwatch catalog sync-stores` (bin/shelfwatch.js runs server/cli.ts) against the
// simulator's store directory: it prints per country what it added and closed, and the
// locale answering 404 as skipped.

const US_STORE = STORE_SEEDS.find((store) => store.country_locale === 'en_US')!;
const OTHER = COUNTRY_SEEDS.find(
  (country) =>
    country.country_code !== 'US' &&
    STORE_SEEDS.some((store) => store.country_locale === country.locale_code),
)!;

describe('shelfwatch catalog sync-stores on the command line', () => {
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

  it('prints what it added and closed per country, and the 404 locale as skipped', async () => {
    await simulator.control('POST', '/_sim/store-list', {
      store_id: 'R9999',
      listed: true,
      store: {
        store_name: 'Test Harbour',
        country_locale: 'en_US',
        city: 'Testville',
        address1: '1 Test Street',
        store_slug: 'testharbour',
      },
    });
    await simulator.control('POST', '/_sim/store-list', {
      store_id: US_STORE.store_id,
      listed: false,
    });
    await simulator.control('POST', '/_sim/store-list-settings', {
      locale: OTHER.locale_code,
      missing: true,
    });
    const result = await runCli([
      'catalog',
      'sync-stores',
      '--country',
      `us,${OTHER.country_code}`,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^Read the store directory of 2 countries from http:\/\/localhost:\d+\.$/m,
    );
    expect(result.stdout).toMatch(
      new RegExp(`^US \\(en_US\\): \\d+ listed; added R9999; closed ${US_STORE.store_id}$`, 'm'),
    );
    expect(result.stdout).toContain(
      `${OTHER.country_code} (${OTHER.locale_code}): skipped, HTTP 404: no directory for this locale`,
    );
  }, 60_000);
});
