import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { getCountryDisplayName } from '#shared/catalog/locale.ts';
import { syncStoreDirectory } from '#server/catalog/directory-sync.ts';
import { declareEgressAddresses } from '#server/db/repositories/egress-repository.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { startTestStack, type TestStack } from '#tests/helpers/stack.ts';
import { startSimulatorHarness, type SimulatorHarness } from '#tests/server/simulator/support.ts';
import { ensureWebsiteBuilt } from './site-helpers.ts';

// The operator's status page as an anonymous visitor sees it: freshness per country (chart and
// table) and the last store directory read per country, and none of the operator's facts
// (egress addresses, proxy hosts, upstream hosts) that the public /v2/status leaves out.

const SECRET_PROXY = 'proxy secret-proxy.example:3128';
const SECRET_HOST = 'secret-upstream.example';
const OTHER = COUNTRY_SEEDS.find(
  (country) =>
    country.country_code !== 'US' &&
    STORE_SEEDS.some((store) => store.country_locale === country.locale_code) &&
    PRODUCT_MODEL_SEEDS.some((model) => model.country_code === country.country_code),
)!;

function pickTarget(countryCode: string, localeCode: string) {
  return {
    country_code: countryCode,
    store_id: STORE_SEEDS.find((store) => store.country_locale === localeCode)!.store_id,
    product_id: PRODUCT_MODEL_SEEDS.find((model) => model.country_code === countryCode)!.product_id,
  };
}

let stack: TestStack;
let simulator: SimulatorHarness;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  await ensureWebsiteBuilt();
  stack = await startTestStack();
  simulator = await startSimulatorHarness();
  const db = stack.stack.db;
  const now = Date.now();
  // Checks as the watcher records them: the US fresh, the other country half an hour ago.
  await db
    .insertInto('poll_targets')
    .values([
      { ...pickTarget('US', 'en_US'), last_covered_at: new Date(now - 2 * 60_000) },
      {
        ...pickTarget(OTHER.country_code, OTHER.locale_code),
        last_covered_at: new Date(now - 30 * 60_000),
      },
    ])
    .execute();
  // The operator's facts, which no visitor may see.
  await declareEgressAddresses(
    db,
    [{ label: SECRET_PROXY, kind: 'proxy', ratePerMinute: 1, burst: 20 }],
    new Date(now),
  );
  await db
    .insertInto('upstream_hosts')
    .values({
      host: SECRET_HOST,
      last_success_at: new Date(now),
      last_failure_at: null,
      last_failure_kind: null,
      cool_down_until: null,
    })
    .execute();
  // A directory read: a new US store, and the other country's directory answering 404.
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
  await simulator.control('POST', '/_sim/store-list-settings', {
    locale: OTHER.locale_code,
    missing: true,
  });
  await syncStoreDirectory(db, {
    baseUrl: simulator.simulator.url,
    countryCodes: ['US', OTHER.country_code],
  });
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await simulator?.close();
  await stack?.stop();
});

describe('the status page for an anonymous visitor', { timeout: 90_000 }, () => {
  it('is linked from the footer and shows freshness per country with its chart', async () => {
    await page.goto(`${stack.baseUrl}/support`);
    await page.getByRole('link', { name: 'Service status' }).click();
    await page.waitForURL(/\/status$/);
    await page.getByRole('heading', { name: 'Service status', level: 1 }).waitFor();

    const table = page.getByTestId('country-freshness');
    await table.waitFor();
    const us = table.getByRole('row', { name: new RegExp(getCountryDisplayName('US')) });
    expect(await us.textContent()).toMatch(/2 minutes ago/);
    const other = table.getByRole('row', {
      name: new RegExp(getCountryDisplayName(OTHER.country_code)),
    });
    expect(await other.textContent()).toMatch(/30 minutes ago/);
    const chart = page.getByRole('img', { name: /each country’s stores were checked/ });
    expect(await chart.locator('rect').count()).toBe(2);
  });

  it('shows the last store directory read per country, the 404 one as skipped', async () => {
    const directory = page.getByTestId('directory-sync');
    const us = directory.getByRole('row', { name: new RegExp(getCountryDisplayName('US')) });
    expect(await us.textContent()).toMatch(/new: R9999/);
    const other = directory.getByRole('row', {
      name: new RegExp(getCountryDisplayName(OTHER.country_code)),
    });
    expect(await other.textContent()).toMatch(/no store directory for this country/);
  });

  it('shows no address, proxy or upstream host to an anonymous visitor', async () => {
    const text = (await page.locator('main, body').first().textContent()) ?? '';
    expect(text).not.toContain('secret-proxy');
    expect(text).not.toContain(SECRET_HOST);
    expect(await page.getByTestId('operator-status').count()).toBe(0);
    const body = (await (await fetch(`${stack.baseUrl}/v2/status`)).json()) as Record<
      string,
      unknown
    >;
    expect(body.view).toBe('public');
    expect(body).not.toHaveProperty('addresses');
    expect(body).not.toHaveProperty('hosts');
  });
});
