import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BUNDLED_CATALOG,
  expandCatalogFile,
  getActiveBuyPage,
  parseCatalogFile,
  type CatalogFile,
} from '#shared/catalog/index.ts';
import { parseCatalogJson } from '#shared/catalog/catalog-fields.ts';
import { quoteForMessage } from '#shared/catalog/catalog-text.ts';

const REFERENCE = new URL('../../../../shared/reference/apple/lineup-2026.md', import.meta.url);

function withModel(model: Record<string, unknown>): unknown {
  const file = structuredClone(BUNDLED_CATALOG) as unknown as {
    product_types: { models: unknown[] }[];
  };
  file.product_types[0]?.models.push(model);
  return file;
}

/** The bundled file with its first type changed by `edit`. */
function withFirstType(edit: (type: Record<string, unknown>) => void): unknown {
  const file = structuredClone(BUNDLED_CATALOG) as unknown as {
    product_types: Record<string, unknown>[];
  };
  const first = file.product_types[0];
  if (first !== undefined) edit(first);
  return file;
}

function listErrors(json: unknown): string[] {
  const result = parseCatalogFile(json);
  return result.ok ? [] : result.errors;
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

  it('cites every source it describes, so a dropped part leaves no orphan description', () => {
    const cited = new Set(
      BUNDLED_CATALOG.product_types.flatMap((type) => type.models.flatMap((model) => model.source)),
    );
    expect(Object.keys(BUNDLED_CATALOG.sources).filter((key) => !cited.has(key))).toEqual([]);
  });

  it('marks every part only one public source shows as single source', () => {
    // The 2024 seed's and the "misc" keys each stand for several files; every other key is one.
    const isCompound = (key: string) => key.startsWith('seed-') || key === 'misc';
    for (const type of BUNDLED_CATALOG.product_types) {
      for (const model of type.models) {
        const [only] = model.source;
        const isSingle = model.source.length === 1 && only !== undefined && !isCompound(only);
        expect(model.single_source === true, `${model.part_number} (${model.country})`).toBe(
          isSingle,
        );
      }
    }
  });

  it('refuses single_source on a part that names two sources', () => {
    expect(
      listErrors(
        withModel({
          country: 'US',
          part_number: 'MZZZ4LL/A',
          name: 'x',
          source: ['K', 'S-U1'],
          single_source: true,
        }),
      ),
    ).toEqual([
      'product type iphone18promax > part MZZZ4LL/A (US): single_source names 2 sources; it needs one',
    ]);
  });

  it('spells a single-source part out as such where its sources are stored', () => {
    const { models } = expandCatalogFile(BUNDLED_CATALOG);
    const hongKong = models.find((model) => model.part_number === 'MJRP4ZA/A');
    expect(hongKong?.source).toMatch(/^single source: HK-DGON: Dgon5000\/iphone-stock-watch-hk /);
    const twoSources = models.find((model) => model.part_number === 'MJXN4ZA/A');
    expect(twoSources?.source).toMatch(/^HK-DGON: .* \| HK-18: carjj\/iphone18-stock-monitor /);
  });

  // Run where the reference folder sits beside the repo; a clone without it skips this.
  it.runIf(existsSync(REFERENCE))('leaves out every number the reference marks as inferred', () => {
    const text = readFileSync(REFERENCE, 'utf8');
    // A later update of the notes may report a number seen in full that a table still marks
    // inferred (MG184LL/A); the update wins.
    const update = /## Update of [\s\S]*?(?=\n## )/.exec(text)?.[0] ?? '';
    const seenLater = new Set(update.match(/\bM[A-Z0-9]{4}(?=LL\/A)/g) ?? []);
    const inferredBases = new Set<string>();
    for (const line of text.split('\n')) {
      if (!/inferred/i.test(line) || !/base only|\+LL\/A/.test(line)) continue;
      const firstCell = line.split('|')[1] ?? '';
      for (const base of firstCell.match(/\bM[A-Z0-9]{4}\b/g) ?? []) {
        if (!seenLater.has(base)) inferredBases.add(base);
      }
    }
    expect(inferredBases.size).toBeGreaterThan(10);
    const catalog: CatalogFile = BUNDLED_CATALOG;
    const listed = catalog.product_types.flatMap((type) =>
      type.models.filter((m) => m.country === 'US').map((m) => m.part_number),
    );
    for (const part of listed) expect(inferredBases.has(part.slice(0, 5)), part).toBe(false);
  });

  it('refuses a day the calendar lacks and accepts a leap day', () => {
    expect(listErrors(withFirstType((type) => (type.launched = '2026-02-29')))).toEqual([
      'product_types > product type iphone18promax > launched: 2026-02-29 is not a date (February 2026 has 28 days)',
    ]);
    expect(listErrors(withFirstType((type) => (type.retired_in = { US: '2026-13-01' })))).toEqual([
      'product_types > product type iphone18promax > retired_in > US: 2026-13-01 is not a date (there is no month 13)',
    ]);
    expect(listErrors(withFirstType((type) => (type.launched = '2028-02-29')))).toEqual([]);
  });

  it('stores names composed (NFC), so the same letters are always the same code points', () => {
    const result = parseCatalogFile(
      withFirstType((type) => (type.product_name = 'Cafe\u0301 Pro')),
    );
    expect(result.ok ? result.file.product_types[0]?.product_name : result.errors).toBe(
      'Caf\u00e9 Pro',
    );
  });

  it('refuses hidden characters, odd spaces and mixed-script look-alikes in names', () => {
    const cases: [string, string][] = [
      ['iPhone\u00a018 Pro Max', 'a space other than U+0020 (U+00A0)'],
      ['iPhone 18 Pro Max\u00ad', 'an invisible character (U+00AD SOFT HYPHEN)'],
      ['iPhone 18\u200d Pro Max', 'an invisible character (U+200D ZERO WIDTH JOINER)'],
      ['\ufeffiPhone 18 Pro Max', 'an invisible character (U+FEFF ZERO WIDTH NO-BREAK SPACE)'],
      ['iPhone 18 Pro\u200f Max', 'a bidirectional control (U+200F RIGHT-TO-LEFT MARK)'],
      ['iPhone 18\tPro Max', 'a control character (U+0009)'],
      ['iPhone 18 Pro Max\ud800', 'a broken character (lone surrogate U+D800)'],
      ['iPhone 18 Pro Max\u3164', 'an invisible character (U+3164)'],
      ['\u0456Phone 18 Pro Max', 'mixes Latin and Cyrillic letters in one word (U+0456 in'],
    ];
    for (const [name, problem] of cases) {
      expect(listErrors(withFirstType((type) => (type.product_name = name))).join('\n')).toContain(
        `product type iphone18promax > product_name: ${problem.startsWith('mixes') ? '' : 'must not contain '}${problem}`,
      );
    }
  });

  it('refuses two types of one file named alike', () => {
    const file = structuredClone(BUNDLED_CATALOG);
    const [first, second] = file.product_types;
    if (first !== undefined && second !== undefined)
      second.product_name = first.product_name.toUpperCase();
    expect(listErrors(file)).toEqual([
      `product type ${second?.product_id} > product_name: "IPHONE 18 PRO MAX" is already the name of product type iphone18promax`,
    ]);
  });

  it('names every unknown field with the entry that holds it', () => {
    const file = withFirstType((type) => {
      type.colour = 'red';
      const [model] = type.models as Record<string, unknown>[];
      if (model !== undefined) model.price = 1;
    }) as Record<string, unknown>;
    file.comment = 'x';
    expect(listErrors(file)).toEqual([
      'product_types > product type iphone18promax > models > part MJW44LL/A (US): unknown field "price"',
      'product_types > product type iphone18promax: unknown field "colour"',
      'file: unknown field "comment"',
    ]);
  });

  it('keeps sources without a prototype and refuses keys every object already has', () => {
    const text = JSON.stringify(BUNDLED_CATALOG);
    const result = parseCatalogFile(parseCatalogJson(text));
    expect(result.ok && Object.getPrototypeOf(result.file.sources)).toBeNull();
    const toStringKey = text.replace('"sources":{', '"sources":{"toString":"x",');
    expect(listErrors(parseCatalogJson(toStringKey))).toEqual([
      'sources > toString: "toString" is a reserved name (every JavaScript object has it); choose another key',
    ]);
  });

  it('shows a hidden character in a message as an escape rather than acting it out', () => {
    expect(quoteForMessage('abc\u202eevil"\\')).toBe('"abc\\u{202E}evil\\"\\\\"');
  });
});
