import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BUNDLED_CATALOG,
  expandCatalogFile,
  getActiveBuyPage,
  parseCatalogFile,
  type CatalogFile,
} from '#shared/catalog/index.ts';

const REFERENCE = new URL('../../../../shared/reference/apple/lineup-2026.md', import.meta.url);

function withModel(model: Record<string, unknown>): unknown {
  const file = structuredClone(BUNDLED_CATALOG) as unknown as {
    product_types: { models: unknown[] }[];
  };
  file.product_types[0]?.models.push(model);
  return file;
}

describe('catalog file format', () => {
  it('accepts the bundled catalog', () => {
    const result = parseCatalogFile(structuredClone(BUNDLED_CATALOG));
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it('rejects a part number without a source, naming the type and the part', () => {
    const result = parseCatalogFile(
      withModel({ country: 'US', part_number: 'MZZZ4LL/A', name: 'iPhone 18 Pro Max 4TB Gold' }),
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors.join('\n')).toContain(
        'product type iphone18promax > models > part MZZZ4LL/A (US) > source',
      );
    }
  });

  it('rejects an empty source list and a source the file does not describe', () => {
    const empty = parseCatalogFile(
      withModel({ country: 'US', part_number: 'MZZZ4LL/A', name: 'x', source: [] }),
    );
    expect(empty.ok).toBe(false);
    const unknown = parseCatalogFile(
      withModel({ country: 'US', part_number: 'MZZZ4LL/A', name: 'x', source: ['nowhere'] }),
    );
    expect(unknown.ok ? [] : unknown.errors).toEqual([
      'product type iphone18promax > part MZZZ4LL/A (US): unknown source "nowhere"',
    ]);
  });

  it('rejects a part listed twice and a malformed part number', () => {
    const twice = parseCatalogFile(
      withModel({ country: 'US', part_number: 'MJQ34LL/A', name: 'again', source: ['K'] }),
    );
    expect(twice.ok ? '' : twice.errors.join('\n')).toContain(
      'part MJQ34LL/A (US): already listed under iphone18pro',
    );
    const malformed = parseCatalogFile(
      withModel({ country: 'US', part_number: 'MJQ34', name: 'base code', source: ['K'] }),
    );
    expect(malformed.ok ? '' : malformed.errors.join('\n')).toContain(
      'part MJQ34 (US) > part_number',
    );
  });

  it('keeps a retired buy page on record but has the sync read it no more', () => {
    const file = structuredClone(BUNDLED_CATALOG);
    const airpods = file.product_types.find((type) => type.product_id === 'airpodspro');
    if (airpods !== undefined) airpods.buy_page_retired = '2026-09-11';
    const result = parseCatalogFile(file);
    expect(result.ok ? [] : result.errors).toEqual([
      'product type airpodspro: buy_page_retired names no buy_page',
    ]);
    const pro = expandCatalogFile(BUNDLED_CATALOG).types.find(
      (type) => type.product_id === 'iphone17pro',
    );
    expect(pro).toMatchObject({
      buy_page: '/shop/buy-iphone/iphone-17-pro',
      buy_page_retired_on: '2026-09-11',
    });
    expect(pro === undefined ? 'missing' : getActiveBuyPage(pro)).toBeNull();
    expect(
      getActiveBuyPage({ buy_page: '/shop/buy-iphone/iphone-17', buy_page_retired_on: null }),
    ).toBe('/shop/buy-iphone/iphone-17');
  });

  it('gives every part of the bundled file at least one described source', () => {
    for (const type of BUNDLED_CATALOG.product_types) {
      for (const model of type.models) {
        expect(model.source.length, model.part_number).toBeGreaterThan(0);
        for (const key of model.source) expect(BUNDLED_CATALOG.sources[key]).toBeTruthy();
      }
    }
  });

  // Run where the reference folder sits beside the repo; a clone without it skips this.
  it.runIf(existsSync(REFERENCE))('leaves out every number the reference marks as inferred', () => {
    const text = readFileSync(REFERENCE, 'utf8');
    const inferredBases = new Set<string>();
    for (const line of text.split('\n')) {
      if (!/inferred/i.test(line) || !/base only|\+LL\/A/.test(line)) continue;
      const firstCell = line.split('|')[1] ?? '';
      for (const base of firstCell.match(/\bM[A-Z0-9]{4}\b/g) ?? []) inferredBases.add(base);
    }
    expect(inferredBases.size).toBeGreaterThan(10);
    const catalog: CatalogFile = BUNDLED_CATALOG;
    const listed = catalog.product_types.flatMap((type) =>
      type.models.filter((m) => m.country === 'US').map((m) => m.part_number),
    );
    for (const part of listed) expect(inferredBases.has(part.slice(0, 5)), part).toBe(false);
  });
});
