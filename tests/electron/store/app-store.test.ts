import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DESKTOP_SETTINGS, type LocalSearch } from '#shared/desktop/local-search.ts';
import { registerFakeElectronModule } from '../fakes.ts';

// electron-store imports `electron` when it is first loaded, so the fake goes in first. Its
// userData folder is never used: every store here gets an absolute cwd.
registerFakeElectronModule(path.join(os.tmpdir(), 'shelfwatch-unused-user-data'));
const { openAppStore, buildAppStoreJsonSchema, DEFAULT_APP_STORE_DATA, STORE_FORMAT_VERSION } =
  await import('#electron/store/app-store.ts');

const NOW = Date.parse('2025-03-04T05:06:07.089Z');
const search: LocalSearch = {
  id: '0b8c5d1e-6f4a-4c3b-9d2e-1a2b3c4d5e6f',
  product_type: 'iphone-16-pro',
  store_id: 'R001',
  include_nearby_store_results: true,
  show_results_only_for_preferred_models: false,
  max_distance_miles: 25,
  preferred_parts: ['MYNF3LL/A'],
  created_at: '2025-03-01T10:00:00.000Z',
};
const folders: string[] = [];

async function createFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-store-'));
  folders.push(folder);
  return folder;
}

afterEach(async () => {
  await Promise.all(
    folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })),
  );
});

describe('app store', () => {
  it('starts a fresh install with the defaults and no notice', async () => {
    const cwd = await createFolder();
    const { store, notices } = openAppStore({ cwd });
    expect(notices).toEqual([]);
    expect(store.get('settings')).toEqual(DEFAULT_DESKTOP_SETTINGS);
    expect(store.get('searches')).toEqual([]);
    expect(store.get('window')).toEqual({});
    expect(store.path).toBe(path.join(cwd, 'config.json'));
  });

  it('keeps what was saved across openings', async () => {
    const cwd = await createFolder();
    const first = openAppStore({ cwd }).store;
    first.set('searches', [search]);
    first.set('settings', { ...DEFAULT_DESKTOP_SETTINGS, check_interval_minutes: 10 });
    first.set('window', { bounds: { x: 10, y: 20, width: 900, height: 600 } });
    first.set('watch', { snapshots: { R001: 'anything the watcher keeps' } });
    const { store, notices } = openAppStore({ cwd });
    expect(notices).toEqual([]);
    expect(store.get('searches')).toEqual([search]);
    expect(store.get('settings').check_interval_minutes).toBe(10);
    expect(store.get('window').bounds).toEqual({ x: 10, y: 20, width: 900, height: 600 });
    expect(store.get('watch')).toEqual({ snapshots: { R001: 'anything the watcher keeps' } });
  });

  it('refuses to write data that breaks the schema', async () => {
    const { store } = openAppStore({ cwd: await createFolder() });
    const badSettings = { ...DEFAULT_DESKTOP_SETTINGS, check_interval_minutes: 0 };
    expect(() => store.set('settings', badSettings)).toThrow(/schema/i);
    const badSearch = { ...search, id: 'not-a-uuid' };
    expect(() => store.set('searches', [badSearch])).toThrow(/schema/i);
    expect(store.get('settings')).toEqual(DEFAULT_DESKTOP_SETTINGS);
  });

  it('keeps a search’s notification cadence, unset or set, and refuses one out of bounds', async () => {
    const cwd = await createFolder();
    const first = openAppStore({ cwd }).store;
    const saved = [
      search,
      { ...search, alert_cadence_minutes: null },
      { ...search, alert_cadence_minutes: 60 },
    ];
    first.set('searches', saved);
    expect(openAppStore({ cwd }).store.get('searches')).toEqual(saved);
    expect(() => first.set('searches', [{ ...search, alert_cadence_minutes: 1441 }])).toThrow(
      /schema/i,
    );
  });

  it('backs up a file that is not JSON, starts fresh and returns a notice', async () => {
    const cwd = await createFolder();
    const file = path.join(cwd, 'config.json');
    await writeFile(file, '{"searches": [ truncated by a crash');
    const { store, notices } = openAppStore({ cwd, now: () => NOW });
    const backup = path.join(cwd, 'config.corrupt-2025-03-04T05-06-07-089Z.json');
    expect(await readFile(backup, 'utf8')).toBe('{"searches": [ truncated by a crash');
    expect(store.get('searches')).toEqual([]);
    expect(store.get('settings')).toEqual(DEFAULT_DESKTOP_SETTINGS);
    expect(notices).toEqual([
      {
        id: expect.any(String) as string,
        level: 'warning',
        message: `Shelfwatch couldn't read its saved data, so it started fresh. A copy was kept at ${backup}.`,
      },
    ]);
    // The reset file is valid again: the next launch opens it without a notice.
    expect(openAppStore({ cwd }).notices).toEqual([]);
  });

  it('backs up a file of the wrong shape and resets it', async () => {
    for (const content of [
      JSON.stringify({ searches: [{ ...search, id: 42 }] }),
      JSON.stringify({ settings: { check_interval_minutes: 'often' } }),
      JSON.stringify([1, 2, 3]),
      'null',
      '',
    ]) {
      const cwd = await createFolder();
      await writeFile(path.join(cwd, 'config.json'), content);
      const { store, notices } = openAppStore({ cwd, now: () => NOW });
      expect(notices, content).toHaveLength(1);
      expect(store.get('searches'), content).toEqual([]);
      const files = await readdir(cwd);
      expect(
        files.filter((name) => name.startsWith('config.corrupt-')),
        content,
      ).toHaveLength(1);
    }
  });

  it('fills settings a file lacks with their defaults and keeps its searches', async () => {
    const cwd = await createFolder();
    // A file without a recorded format version whose settings predate two of today's fields.
    await writeFile(
      path.join(cwd, 'config.json'),
      JSON.stringify({
        searches: [search],
        settings: { check_interval_minutes: 15, notifications_enabled: false },
      }),
    );
    const { store, notices } = openAppStore({ cwd });
    expect(notices).toEqual([]);
    expect(store.get('searches')).toEqual([search]);
    expect(store.get('settings')).toEqual({
      ...DEFAULT_DESKTOP_SETTINGS,
      check_interval_minutes: 15,
      notifications_enabled: false,
    });
    expect(store.get('notices')).toEqual([]);
    const saved = JSON.parse(await readFile(store.path, 'utf8')) as Record<string, unknown>;
    expect(saved.__internal__).toEqual({ migrations: { version: STORE_FORMAT_VERSION } });
  });

  it('resets a file that passes the early check but fails the schema after migrations', async () => {
    const cwd = await createFolder();
    // Already at the current format, so no migration fills the missing settings.
    await writeFile(
      path.join(cwd, 'config.json'),
      JSON.stringify({
        __internal__: { migrations: { version: STORE_FORMAT_VERSION } },
        searches: [search],
        settings: { check_interval_minutes: 15 },
      }),
    );
    const { store, notices } = openAppStore({ cwd, now: () => NOW });
    expect(notices).toHaveLength(1);
    expect(store.get('settings')).toEqual(DEFAULT_DESKTOP_SETTINGS);
    const files = await readdir(cwd);
    expect(files.filter((name) => name.startsWith('config.corrupt-'))).toHaveLength(1);
  });

  it('keeps fields written by a newer version instead of discarding the file', async () => {
    const cwd = await createFolder();
    await writeFile(
      path.join(cwd, 'config.json'),
      JSON.stringify({
        ...DEFAULT_APP_STORE_DATA,
        searches: [search],
        settings: { ...DEFAULT_DESKTOP_SETTINGS, sound: 'chime' },
        future_key: true,
      }),
    );
    const { store, notices } = openAppStore({ cwd });
    expect(notices).toEqual([]);
    expect(store.get('searches')).toEqual([search]);
  });

  it('uses a JSON schema generated from the zod schema for every key', () => {
    const schema = buildAppStoreJsonSchema();
    expect(Object.keys(schema).sort()).toEqual(Object.keys(DEFAULT_APP_STORE_DATA).sort());
    expect(schema.settings).toMatchObject({ type: 'object' });
    expect(schema.searches).toMatchObject({ type: 'array' });
  });
});
