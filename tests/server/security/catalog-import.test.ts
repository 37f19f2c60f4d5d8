import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUNDLED_CATALOG, type CatalogFile } from '#shared/catalog/index.ts';
import { applyCatalogFile, CatalogFileError } from '#server/catalog/apply-catalog-file.ts';
import { registerCatalogModelCommands } from '#server/catalog/catalog-commands.ts';
import { seedCatalog } from '#server/catalog/catalog-seed.ts';
import type { Db } from '#server/db/database.ts';
import { readCatalogRows } from '#server/db/repositories/catalog-changes-repository.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';

// Issue 43, item 3: the catalog files the probe imported, each refused with the entry named,
// through `shelfwatch catalog import-models` itself, with nothing written to the database.

type TypeEntry = CatalogFile['product_types'][number];

/** The bundled iPhone Duo entry alone, as a catalog file, changed by `edit`. */
function buildDuoFile(edit: (file: CatalogFile, duo: TypeEntry) => void): CatalogFile {
  const file = structuredClone(BUNDLED_CATALOG);
  file.product_types = file.product_types.filter((type) => type.product_id === 'iphoneduo');
  const duo = file.product_types[0];
  if (duo === undefined) throw new Error('the bundled catalog has no iPhone Duo');
  edit(file, duo);
  return file;
}

/** A look-alike of the iPhone 18 Pro: a new type whose name shows as "iPhone 18 Pro". */
function buildLookAlikeFile(productName: string): CatalogFile {
  return buildDuoFile((_file, duo) => {
    duo.product_id = 'iphone18prolookalike';
    duo.product_name = productName;
  });
}

const DUO_JSON = JSON.stringify(buildDuoFile(() => undefined));

/** The probe's catalog files: raw JSON, and what the refusal must name. */
const PROBE_FILES: readonly { name: string; json: string; refusal: string }[] = [
  {
    name: 'a part citing the source key "constructor"',
    json: JSON.stringify(
      buildDuoFile((_file, duo) => {
        if (duo.models[0] !== undefined) duo.models[0].source = ['constructor'];
      }),
    ),
    refusal:
      'product type iphoneduo > models > part MK1E4LL/A (US) > source > entry 1: "constructor" is a reserved name',
  },
  {
    name: 'a part citing the source key "__proto__"',
    json: JSON.stringify(
      buildDuoFile((_file, duo) => {
        if (duo.models[0] !== undefined) duo.models[0].source = ['__proto__'];
      }),
    ),
    refusal:
      'product type iphoneduo > models > part MK1E4LL/A (US) > source > entry 1: "__proto__" is a reserved name',
  },
  {
    name: 'sources describing "constructor"',
    json: JSON.stringify(
      buildDuoFile((file, duo) => {
        file.sources = { ...file.sources, constructor: 'a source named like Object' };
        if (duo.models[0] !== undefined) duo.models[0].source = ['constructor'];
      }),
    ),
    refusal: 'sources > constructor: "constructor" is a reserved name',
  },
  {
    name: 'sources describing "__proto__" (JSON keeps it as a key)',
    json: DUO_JSON.replace('"sources":{', '"sources":{"__proto__":"a source named __proto__",'),
    refusal: 'sources > __proto__: "__proto__" is a reserved name',
  },
  {
    name: 'the impossible date 2026-02-31',
    json: JSON.stringify(buildDuoFile((_file, duo) => (duo.launched = '2026-02-31'))),
    refusal:
      'product type iphoneduo > launched: 2026-02-31 is not a date (February 2026 has 28 days)',
  },
  {
    name: 'a zero-width look-alike "iPhone 18 Pro"',
    json: JSON.stringify(buildLookAlikeFile('iPhone 18\u200B Pro')),
    refusal:
      'product type iphone18prolookalike > product_name: must not contain an invisible character (U+200B ZERO WIDTH SPACE)',
  },
  {
    name: 'a bidi look-alike "iPhone 18 Pro"',
    json: JSON.stringify(buildLookAlikeFile('iPhone 18 Pro\u2066\u2069')),
    refusal:
      'product type iphone18prolookalike > product_name: must not contain a bidirectional control (U+2066 LEFT-TO-RIGHT ISOLATE)',
  },
  {
    name: 'a NUL character in a name',
    json: JSON.stringify(
      buildDuoFile((_file, duo) => {
        if (duo.models[1] !== undefined) duo.models[1].name = 'iPhone Duo\u0000 512GB';
      }),
    ),
    refusal:
      'product type iphoneduo > models > part MK1F4LL/A (US) > name: must not contain a control character (U+0000 NUL)',
  },
  {
    name: 'an unknown key',
    json: DUO_JSON.replace('"product_id":"iphoneduo",', '"product_id":"iphoneduo","price":"999",'),
    refusal: 'product type iphoneduo: unknown field "price"',
  },
];

/** The database, with statements that `matches` fails as PostgreSQL ending the session would. */
function failStatements(db: Db, matches: (statement: string) => boolean): Db {
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (matches(JSON.stringify(node))) {
        throw Object.assign(new Error('terminating connection due to administrator command'), {
          code: '57P01',
        });
      }
      return node;
    },
    transformResult: ({ result }) => Promise.resolve(result),
  };
  return db.withPlugin(plugin);
}

describe('catalog import hardening', () => {
  let testDb: TestDatabase;
  let folder: string;

  /** Runs `shelfwatch catalog import-models FILE` in this process against the test database. */
  async function importModels(json: string): Promise<void> {
    const file = path.join(folder, 'probe.json');
    await writeFile(file, json);
    const program = new Command().exitOverride();
    const catalog = program.command('catalog');
    registerCatalogModelCommands(catalog, { withDatabase: (task) => task(testDb.db) });
    await program.parseAsync(['catalog', 'import-models', file], { from: 'user' });
  }

  /** Everything an import could write: the catalog's rows and its change log. */
  async function readWritten() {
    const changes = await testDb.db.selectFrom('catalog_changes').selectAll().execute();
    return { rows: await readCatalogRows(testDb.db), changes: changes.length };
  }

  beforeAll(async () => {
    testDb = await createTestDatabase();
    folder = await mkdtemp(path.join(tmpdir(), 'shelfwatch-catalog-probe-'));
    await seedCatalog(testDb.db);
  }, 60_000);
  beforeEach(async () => {
    // As before the Duo's launch, so that every file below would add it if it were applied.
    await testDb.db.deleteFrom('product_models').where('product_id', '=', 'iphoneduo').execute();
    await testDb.db.deleteFrom('product_types').where('product_id', '=', 'iphoneduo').execute();
  });
  afterAll(async () => {
    await testDb?.drop();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it.each(PROBE_FILES)('refuses $name, naming the entry, and writes nothing', async (probe) => {
    const before = await readWritten();
    const refused = await importModels(probe.json).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(CatalogFileError);
    expect((refused as CatalogFileError).problems).toEqual(
      expect.arrayContaining([expect.stringContaining(probe.refusal)]),
    );
    expect(await readWritten()).toEqual(before);
  });

  it('applies the same file once it is clean, so the refusals above are the fixtures alone', async () => {
    const printed = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await importModels(DUO_JSON);
    expect(printed).toHaveBeenCalledWith('Applied.');
    printed.mockRestore();
    const { rows } = await readWritten();
    const duo = rows.models.filter((model) => model.product_id === 'iphoneduo');
    const bundledDuo = BUNDLED_CATALOG.product_types.find(
      (type) => type.product_id === 'iphoneduo',
    );
    expect(duo.length).toBeGreaterThan(0);
    expect(duo).toHaveLength(bundledDuo?.models.length ?? -1);
    expect(duo.every((model) => !model.source.includes('[native code]'))).toBe(true);
  });

  it('refuses a type named like one the catalog has, however it is spaced or cased', async () => {
    const before = await readWritten();
    await expect(
      importModels(JSON.stringify(buildLookAlikeFile('iphone  18 PRO'))),
    ).rejects.toThrow(
      'product type iphone18prolookalike > product_name: "iphone  18 PRO" is already the name of product type iphone18pro',
    );
    expect(await readWritten()).toEqual(before);
  });

  it('names the entry a database error came from, in our words, when a NUL reaches PostgreSQL', async () => {
    // Past the file check (a file built in code): the database's own refusal must be mapped.
    const file = buildDuoFile((_file, duo) => {
      if (duo.models[5] !== undefined) duo.models[5].name = 'iPhone Duo\u0000';
    });
    const part = file.product_types[0]?.models[5]?.part_number;
    const before = await readWritten();
    const refused = await applyCatalogFile(testDb.db, file, { kind: 'import', origin: 'probe' })
      .then(() => undefined)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CatalogFileError);
    const message = (refused as CatalogFileError).message;
    expect(message).toContain(
      `product type iphoneduo > part ${part} (US) > name: holds a character the database cannot store`,
    );
    expect(message).not.toMatch(/UTF8|byte sequence|0x00/);
    expect(await readWritten()).toEqual(before);
  });

  it('says in our words that nothing was changed when the database fails mid-way', async () => {
    const failing = failStatements(
      testDb.db,
      (statement) => statement.includes('InsertQueryNode') && statement.includes('product_models'),
    );
    const before = await readWritten();
    await expect(
      applyCatalogFile(
        failing,
        buildDuoFile(() => undefined),
        { kind: 'import', origin: 'f.json' },
      ),
    ).rejects.toThrow(
      'Nothing was changed: f.json could not be applied:\n  the database stopped the change (it was shut down or restarted) (SQLSTATE 57P01)',
    );
    expect(await readWritten()).toEqual(before);
  });
});
