import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBuyPage } from '#shared/catalog/buy-page.ts';
import { PRODUCT_MODEL_SEEDS } from '#shared/catalog/index.ts';
import { startSimulatorHarness, type SimulatorHarness } from './support.ts';

describe('simulator buy pages', () => {
  let harness: SimulatorHarness;
  beforeAll(async () => {
    harness = await startSimulatorHarness();
  });
  afterAll(async () => harness?.close());

  async function getPage(path: string): Promise<{ status: number; text: string }> {
    const response = await fetch(`${harness.simulator.url}${path}`);
    return { status: response.status, text: await response.text() };
  }

  it('lists every sold model of the page’s types in both shapes, names with non-breaking spaces', async () => {
    const page = await getPage('/shop/buy-iphone/iphone-18-pro');
    expect(page.status).toBe(200);
    expect(page.text).toContain('window.PRODUCT_SELECTION_BOOTSTRAP');
    expect(page.text).toContain('id="metrics"');
    expect(page.text).toContain('iPhone\u00a018\u00a0Pro\u00a0256GB\u00a0Black');
    const read = parseBuyPage(page.text);
    const expected = PRODUCT_MODEL_SEEDS.filter(
      (m) => m.country_code === 'US' && m.product_id.startsWith('iphone18pro'),
    ).map((m) => m.part_number);
    expect(read.products.map((p) => p.partNumber).sort()).toEqual([...expected].sort());
    expect(read.products.find((p) => p.partNumber === 'MJW64LL/A')).toMatchObject({
      name: 'iPhone 18 Pro Max 256GB Burgundy',
      familyType: 'iphone18promax',
      capacity: '256GB',
      color: 'Burgundy',
    });
  });

  it('serves a country’s page under its path and leaves out models retired there', async () => {
    const uk = parseBuyPage((await getPage('/uk/shop/buy-iphone/iphone-duo')).text);
    expect(uk.products).toHaveLength(8);
    expect(uk.products.every((p) => p.partNumber.endsWith('QN/A'))).toBe(true);
    // The iPhone 17 Pro is no longer sold in the US: no US page, while Australia's stays.
    expect((await getPage('/shop/buy-iphone/iphone-17-pro')).status).toBe(404);
    expect(
      parseBuyPage((await getPage('/au/shop/buy-iphone/iphone-17-pro')).text).products,
    ).toHaveLength(21);
    expect((await getPage('/shop/buy-iphone/iphone-99')).status).toBe(404);
  });

  it('lists and unlists a stocked model at run time, and serves one shape on request', async () => {
    const off = await harness.control('POST', '/_sim/buy-page', {
      country: 'us',
      part_number: 'mjq34ll/a',
      listed: false,
      shape: 'metrics',
    });
    expect(off).toEqual({
      status: 200,
      json: {
        country: 'US',
        part_number: 'MJQ34LL/A',
        listed: false,
        page: null,
        shape: 'metrics',
      },
    });
    const page = await getPage('/shop/buy-iphone/iphone-18-pro');
    expect(page.text).not.toContain('PRODUCT_SELECTION_BOOTSTRAP');
    expect(parseBuyPage(page.text).products.map((p) => p.partNumber)).not.toContain('MJQ34LL/A');
    await harness.control('POST', '/_sim/buy-page', {
      country: 'US',
      part_number: 'MJQ34LL/A',
      listed: true,
      shape: 'both',
    });
    expect(
      parseBuyPage((await getPage('/shop/buy-iphone/iphone-18-pro')).text).products,
    ).toHaveLength(32);
  });

  it('refuses bad control bodies and parts it does not stock, naming the field', async () => {
    const bad = await harness.control('POST', '/_sim/buy-page', {
      country: 'USA',
      part_number: 'X',
      listed: true,
    });
    expect(bad).toMatchObject({ status: 400, json: { field: 'country' } });
    const unknown = await harness.control('POST', '/_sim/buy-page', {
      country: 'US',
      part_number: 'MZZZ4LL/A',
      listed: true,
    });
    expect(unknown).toMatchObject({ status: 404, json: { field: 'part_number' } });
    const noPage = await harness.control('POST', '/_sim/buy-page', {
      country: 'US',
      part_number: 'MQLU3AM/A',
      listed: true,
    });
    expect(noPage).toMatchObject({ status: 400, json: { field: 'page' } });
  });
});
