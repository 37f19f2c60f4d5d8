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

  async function getPage(path: string) {
    const response = await fetch(`${harness.simulator.url}${path}`, { redirect: 'manual' });
    return {
      status: response.status,
      location: response.headers.get('location'),
      text: await response.text(),
    };
  }

  it('writes an iPhone page as Apple does: unquoted key, HTML display values, metrics with U+00A0', async () => {
    const page = await getPage('/shop/buy-iphone/iphone-18-pro');
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      'window.PRODUCT_SELECTION_BOOTSTRAP = {\n  productSelectionData: {',
    );
    // Not JSON as a whole: the page's literal cannot be parsed without cutting the value out.
    expect(page.text).not.toContain('"productSelectionData"');
    // Inside the script, `</` is written `<\/` as a server's JSON escape does.
    expect(page.text).toContain('256<small>GB<\\/small><as-footnote');
    expect(page.text).toContain(
      'iPhone&nbsp;18&nbsp;Pro&nbsp;Max\\n<span class=\\"form-label-small\\">',
    );
    expect(page.text).toContain('"part":"IPHONE18PRO_MAIN"');
    expect(page.text).toContain('id="metrics"');
    expect(page.text).toContain('iPhone\u00a018\u00a0Pro\u00a0256GB\u00a0Black');
    const read = parseBuyPage(page.text);
    expect(read.problems).toEqual([]);
    const expected = PRODUCT_MODEL_SEEDS.filter(
      (m) => m.country_code === 'US' && m.product_id.startsWith('iphone18pro'),
    ).map((m) => m.part_number);
    expect(read.products.map((p) => p.partNumber).sort()).toEqual([...expected].sort());
    expect(read.products.find((p) => p.partNumber === 'MJW64LL/A')).toEqual({
      partNumber: 'MJW64LL/A',
      name: 'iPhone 18 Pro Max 256GB Burgundy',
      title: 'iPhone 18 Pro Max',
      familyType: 'iphone18promax',
      details: ['256GB', 'Burgundy'],
    });
  });

  it('writes Mac pages with dimensions and btrOrFdPartNumber, in the array layout, without metrics', async () => {
    const page = await getPage('/shop/buy-mac/mac-mini');
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      'window.PRODUCT_SELECTION_BOOTSTRAP = [{\n  productSelectionData: {',
    );
    expect(page.text).not.toContain('id="metrics"');
    expect(page.text).toContain('"btrOrFdPartNumber":null,"type":"CONFIGURABLE"');
    const read = parseBuyPage(page.text);
    expect(read).toMatchObject({ hasSelectionData: true, hasMetrics: false, problems: [] });
    // The M4 Mac mini is retired since the 2026 refresh: off the page, its successors on it.
    expect(read.products.some((p) => p.partNumber === 'MU9D3LL/A')).toBe(false);
    expect(read.products.map((p) => p.partNumber).sort()).toEqual(['MHQK4LL/A', 'MHQN4LL/A']);
    const studio = parseBuyPage((await getPage('/shop/buy-mac/mac-studio')).text);
    expect(studio.products.find((p) => p.partNumber === 'MHL64LL/A')).toEqual({
      partNumber: 'MHL64LL/A',
      name: null,
      title: null,
      familyType: null,
      details: ['M5 Max 36GB/512GB'],
    });
    const imac = parseBuyPage((await getPage('/shop/buy-mac/imac')).text);
    expect(imac.products.find((p) => p.partNumber === 'MWUF3LL/A')?.details).toEqual([
      '24-inch',
      'M4 8-core',
    ]);
  });

  it('writes a Watch page with the part in `part` when a Watch model is listed on one', async () => {
    const listed = await harness.control('POST', '/_sim/buy-page', {
      country: 'US',
      part_number: 'MNP53LL/A',
      listed: true,
      page: '/shop/buy-watch/apple-watch',
    });
    expect(listed.status).toBe(200);
    const page = await getPage('/shop/buy-watch/apple-watch');
    expect(page.text).toContain('"part":"MNP53LL/A"');
    expect(page.text).not.toContain('id="metrics"');
    expect(parseBuyPage(page.text).products).toEqual([
      {
        partNumber: 'MNP53LL/A',
        name: null,
        title: null,
        familyType: null,
        details: ['8 GPS', '41mm', 'Midnight Aluminum'],
      },
    ]);
    await harness.control('POST', '/_sim/buy-page', {
      country: 'US',
      part_number: 'MNP53LL/A',
      listed: false,
    });
  });

  it('answers the retired iPhone 17 Pro page with a 301 to an overview page without product data', async () => {
    const retired = await getPage('/au/shop/buy-iphone/iphone-17-pro');
    expect(retired).toMatchObject({ status: 301, location: '/au/iphone/' });
    const overview = await getPage('/au/iphone/');
    expect(overview.status).toBe(200);
    expect(parseBuyPage(overview.text)).toMatchObject({
      products: [],
      hasSelectionData: false,
      hasMetrics: false,
    });
    expect((await getPage('/shop/buy-iphone/iphone-17-pro')).location).toBe('/iphone/');
  });

  it('serves a country’s page under its path and leaves out models retired there', async () => {
    const uk = parseBuyPage((await getPage('/uk/shop/buy-iphone/iphone-duo')).text);
    expect(uk.products).toHaveLength(8);
    expect(uk.products.every((p) => p.partNumber.endsWith('QN/A'))).toBe(true);
    expect(
      parseBuyPage((await getPage('/au/shop/buy-iphone/iphone-air')).text).products,
    ).toHaveLength(12);
    expect((await getPage('/shop/buy-iphone/iphone-99')).status).toBe(404);
  });

  it('switches layout and retires a page at run time through the settings route', async () => {
    const array = await harness.control('POST', '/_sim/buy-page-settings', { layout: 'array' });
    expect(array).toEqual({
      status: 200,
      json: {
        shape: 'both',
        layout: 'array',
        retired_pages: ['/shop/buy-iphone/iphone-17-pro'],
      },
    });
    const page = await getPage('/shop/buy-iphone/iphone-duo');
    expect(page.text).toContain('window.PRODUCT_SELECTION_BOOTSTRAP = [{');
    expect(parseBuyPage(page.text).products).toHaveLength(8);

    const retire = await harness.control('POST', '/_sim/buy-page-settings', {
      page: '/shop/buy-iphone/iphone-duo',
      retired: true,
    });
    expect(retire.json).toMatchObject({
      retired_pages: ['/shop/buy-iphone/iphone-17-pro', '/shop/buy-iphone/iphone-duo'],
    });
    expect(await getPage('/ca/shop/buy-iphone/iphone-duo')).toMatchObject({
      status: 301,
      location: '/ca/iphone/',
    });
    await harness.control('POST', '/_sim/buy-page-settings', {
      page: '/shop/buy-iphone/iphone-duo',
      retired: false,
      layout: 'by-page',
    });
    expect((await getPage('/ca/shop/buy-iphone/iphone-duo')).status).toBe(200);
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
    // Mac pages have no metrics block to fall back to: they keep their selection data.
    expect(parseBuyPage((await getPage('/shop/buy-mac/mac-mini')).text).products).not.toEqual([]);
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
    const badLayout = await harness.control('POST', '/_sim/buy-page-settings', { layout: 'json' });
    expect(badLayout).toMatchObject({ status: 400, json: { field: 'layout' } });
    const lonePage = await harness.control('POST', '/_sim/buy-page-settings', {
      page: '/shop/buy-iphone/iphone-duo',
    });
    expect(lonePage).toMatchObject({ status: 400, json: { field: 'retired' } });
  });
});
