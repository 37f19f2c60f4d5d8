import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productListSchema } from '#shared/api/catalog.ts';
import { searchSchema } from '#shared/api/searches.ts';
import { BUNDLED_CATALOG, type CatalogFile } from '#shared/catalog/index.ts';
import { listenForCatalogChanges } from '#server/catalog/catalog-notify.ts';
import { readCatalogRows } from '#server/db/repositories/catalog-changes-repository.ts';
import { startApiHarness, type ApiHarness } from '#tests/helpers/api-harness.ts';

const ROOT_DIR = fileURLToPath(new URL('../../..', import.meta.url));

/** A catalog file holding only the bundled iPhone Duo entry, changed by `edit`. */
function duoFile(edit: (duo: CatalogFile['product_types'][number]) => void = () => undefined) {
  const file = structuredClone(BUNDLED_CATALOG);
  file.product_types = file.product_types.filter((type) => type.product_id === 'iphoneduo');
  const duo = file.product_types[0];
  if (duo === undefined) throw new Error('the bundled catalog has no iPhone Duo');
  edit(duo);
  return file;
}

describe('shelfwatch catalog import-models', () => {
  let api: ApiHarness;
  let folder: string;
  let stopListening: () => Promise<void>;

  async function runCli(args: string[]) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
      cwd: ROOT_DIR,
      env: { ...process.env, DATABASE_URL: api.testDb.url },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { code, stdout, stderr };
  }

  async function writeCatalog(name: string, content: unknown): Promise<string> {
    const file = path.join(folder, name);
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  }

  async function listProductIds(): Promise<string[]> {
    const response = await api.call({ method: 'GET', url: '/v2/products' });
    return productListSchema.parse(response.json()).map((product) => product.product_id);
  }

  beforeAll(async () => {
    api = await startApiHarness();
    folder = await mkdtemp(path.join(tmpdir(), 'shelfwatch-catalog-'));
    // As a running server does: another process's import reaches this one's caches at once.
    stopListening = await listenForCatalogChanges(api.testDb.url, { warn: () => undefined });
    // A catalog from before the Duo's launch.
    await api.testDb.db
      .deleteFrom('product_models')
      .where('product_id', '=', 'iphoneduo')
      .execute();
    await api.testDb.db.deleteFrom('product_types').where('product_id', '=', 'iphoneduo').execute();
  }, 60_000);
  afterAll(async () => {
    await stopListening?.();
    await api?.close();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it('refuses a malformed file, naming the bad entry, and changes nothing', async () => {
    const before = await readCatalogRows(api.testDb.db);
    const noSource = await writeCatalog(
      'no-source.json',
      duoFile((duo) => {
        const first = duo.models[0] as Record<string, unknown>;
        delete first.source;
      }),
    );
    const result = await runCli(['catalog', 'import-models', noSource]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'product type iphoneduo > models > part MK1E4LL/A (US) > source',
    );
    const notJson = await runCli(['catalog', 'import-models', await writeCatalog('x.json', '{')]);
    expect(notJson.stderr).toContain('is not valid JSON');
    expect(await readCatalogRows(api.testDb.db)).toEqual(before);
  }, 60_000);

  it('lists every problem of a probe file on stderr, in our words, and changes nothing', async () => {
    const before = await readCatalogRows(api.testDb.db);
    const json = JSON.stringify(
      duoFile((duo) => {
        duo.launched = '2026-02-31';
        if (duo.models[0] !== undefined) duo.models[0].name = 'iPhone Duo\u0000';
      }),
    ).replace('"sources":{', '"sources":{"__proto__":"x",');
    const result = await runCli([
      'catalog',
      'import-models',
      await writeCatalog('probe.json', json),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('sources > __proto__: "__proto__" is a reserved name');
    expect(result.stderr).toContain('product type iphoneduo > launched: 2026-02-31 is not a date');
    expect(result.stderr).toContain(
      'product type iphoneduo > models > part MK1E4LL/A (US) > name: must not contain a control character (U+0000 NUL)',
    );
    expect(result.stderr).not.toMatch(/UTF8|byte sequence/);
    expect(await readCatalogRows(api.testDb.db)).toEqual(before);
  }, 60_000);

  it('prints the difference without applying it on --dry-run', async () => {
    const file = await writeCatalog('duo.json', duoFile());
    const result = await runCli(['catalog', 'import-models', file, '--dry-run']);
    expect(result.stderr).not.toContain('Error');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Product types added (1):\n  iphoneduo\n');
    expect(result.stdout).toContain('Parts added (32):');
    expect(result.stdout).toContain('  MK1E4LL/A (US, iPhone Duo 256GB Star White)');
    expect(result.stdout).toContain('Dry run: nothing was changed.');
    expect(await listProductIds()).not.toContain('iphoneduo');
  }, 60_000);

  it('adds a type that the running server offers and searches at once', async () => {
    const file = await writeCatalog('duo.json', duoFile());
    const result = await runCli(['catalog', 'import-models', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Applied.');
    await expect.poll(listProductIds, { timeout: 5_000 }).toContain('iphoneduo');

    const user = await api.createUser('duo-fan', 'best');
    const created = await api.call({
      method: 'POST',
      url: '/v2/searches',
      as: user,
      body: { product_type: 'iphoneduo', store_id: 'R095' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const search = searchSchema.parse(created.json());
    expect(search.product_name).toBe('iPhone Duo');
    expect(search.product_models.map((m) => m.part_number).sort()).toEqual([
      'MK1E4LL/A',
      'MK1F4LL/A',
      'MK1G4LL/A',
      'MK1H4LL/A',
      'MK1J4LL/A',
      'MK1L4LL/A',
      'MK1Q4LL/A',
      'MK1R4LL/A',
    ]);

    const again = await runCli(['catalog', 'import-models', file]);
    expect(again.stdout.trim()).toBe('No changes.');
  }, 60_000);

  it('retires the parts of a type that the file no longer lists', async () => {
    const file = await writeCatalog(
      'duo-without-2tb.json',
      duoFile((duo) => {
        duo.models = duo.models.filter((m) => !m.name.includes('2TB'));
      }),
    );
    const result = await runCli(['catalog', 'import-models', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Parts retired (8):');
    const { models } = await readCatalogRows(api.testDb.db);
    const retired = models.filter((m) => m.product_id === 'iphoneduo' && m.retired_on !== null);
    expect(retired.map((m) => m.display_name).every((name) => name.includes('2TB'))).toBe(true);
    expect(await listProductIds()).toContain('iphoneduo');
  }, 60_000);

  it('refuses parts of a country the catalog lacks', async () => {
    const file = await writeCatalog(
      'new-zealand.json',
      duoFile((duo) => {
        duo.models.push({
          // New Zealand has no Apple Store, so the catalog has no such country.
          country: 'NZ',
          part_number: 'MFYM4X/A',
          name: 'iPhone 17 Pro Max 256GB Silver',
          source: ['A'],
        });
      }),
    );
    const result = await runCli(['catalog', 'import-models', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'product type iphoneduo > part MFYM4X/A (NZ): unknown country NZ',
    );
  }, 60_000);
});
