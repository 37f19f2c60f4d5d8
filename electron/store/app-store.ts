import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import Store, { type Options, type Schema } from 'electron-store';
import { z } from 'zod';
import {
  DEFAULT_DESKTOP_SETTINGS,
  desktopNoticeSchema,
  desktopSettingsSchema,
  localSearchSchema,
  type DesktopNotice,
} from '#shared/desktop/local-search.ts';
import { savedWindowBoundsSchema } from '#electron/window/window-state.ts';

// The app's saved data: local searches, settings, the watch loop's state, the window's place
// and pending notices, in one electron-store JSON file in the user's data folder. The file is
// checked before electron-store reads it, because electron-store throws on a broken file (or,
// with clearInvalidConfig, silently empties it); here the user keeps a copy and is told.

/** Everything the store holds, as validated on every read and write. */
export const appStoreDataSchema = z.object({
  searches: z.array(localSearchSchema),
  settings: desktopSettingsSchema,
  /** The local watch loop's state; shared/watch/local validates it when it loads it. */
  watch: z.unknown(),
  window: z.object({ bounds: savedWindowBoundsSchema.optional() }),
  notices: z.array(desktopNoticeSchema),
  /** Questions the app asks once: a "No" is remembered. */
  prompts: z.object({
    move_to_applications_declined: z.boolean(),
    /** The update version the move was last offered for (each new one asks again). */
    move_offered_version: z.string().nullable().optional(),
    /** When the user was last told an update cannot be installed here (once a day at most). */
    update_blocked_told_at: z.number().nullable().optional(),
  }),
});
/** The store's data. */
export type AppStoreData = z.infer<typeof appStoreDataSchema>;
/** The app's store, with get/set typed by key. */
export type AppStore = Store<AppStoreData>;

/** A fresh install's data. */
export const DEFAULT_APP_STORE_DATA: AppStoreData = {
  searches: [],
  settings: DEFAULT_DESKTOP_SETTINGS,
  watch: null,
  window: {},
  notices: [],
  prompts: { move_to_applications_declined: false },
};

/**
 * What a file may hold before migrations run: any key may be missing and settings may lack
 * fields (migrations fill them); keys this version does not know (a newer version's, or
 * electron-store's own `__internal__`) are kept.
 */
const storedFileSchema = z.object({
  searches: appStoreDataSchema.shape.searches.optional(),
  settings: desktopSettingsSchema.partial().optional(),
  watch: z.unknown().optional(),
  window: appStoreDataSchema.shape.window.optional(),
  notices: appStoreDataSchema.shape.notices.optional(),
  prompts: appStoreDataSchema.shape.prompts.optional(),
});

/**
 * Version of the file's format (not the app's version, so releases that do not touch the data
 * run no migrations). A change of the data's shape bumps it and adds a migration step below.
 */
export const STORE_FORMAT_VERSION = '1.1.0';

/**
 * Steps keyed by the format version they bring a file to; electron-store runs each newer
 * step once, before it validates the file against the schema.
 */
const MIGRATIONS: NonNullable<Options<AppStoreData>['migrations']> = {
  // electron-store fills `defaults` only for missing top-level keys, so a `settings` object
  // written before a setting existed (or by a build without versioned data) lacks it and
  // would fail the schema. Fill every missing setting with its default instead.
  '1.0.0': (store) => {
    store.set('settings', { ...DEFAULT_DESKTOP_SETTINGS, ...store.get('settings') });
  },
  // 1.1.0 added the Dock icon setting.
  '1.1.0': (store) => {
    store.set('settings', { ...DEFAULT_DESKTOP_SETTINGS, ...store.get('settings') });
  },
};

/** The JSON schema electron-store validates with, generated from the zod schema. */
export function buildAppStoreJsonSchema(): Schema<AppStoreData> {
  // `input` mode leaves out `additionalProperties: false`: a file written by a newer version
  // (extra fields) stays readable, as zod's parse (which strips unknown keys) also allows.
  const { properties } = z.toJSONSchema(appStoreDataSchema, { io: 'input' }) as {
    properties: Schema<AppStoreData>;
  };
  return properties;
}

/** Where the store lives and how time is read (for the backup's name). */
export type OpenAppStoreOptions = {
  /** Folder of the file (the app's userData folder). */
  cwd: string;
  /** File name without extension. */
  name?: string;
  now?: () => number;
};

/**
 * Opens the store. A file that is not JSON or not the expected shape is moved aside to
 * `<name>.corrupt-<time>.json`, the store starts from defaults and a notice says so; opening
 * never fails because of the file's content.
 */
export function openAppStore(options: OpenAppStoreOptions): {
  store: AppStore;
  notices: DesktopNotice[];
} {
  const name = options.name ?? 'config';
  const now = options.now ?? Date.now;
  const filePath = path.join(options.cwd, `${name}.json`);
  const notices: DesktopNotice[] = [];
  const resetFile = () => notices.push(setAsideFile(filePath, now()));

  if (!isStoredFileReadable(filePath)) resetFile();
  try {
    return { store: createStore(options.cwd, name), notices };
  } catch {
    // The file passed the early check but not the full one after migrations (or a migration
    // failed): same treatment, then a fresh file, which cannot fail.
    resetFile();
    return { store: createStore(options.cwd, name), notices };
  }
}

function createStore(cwd: string, name: string): AppStore {
  return new Store<AppStoreData>({
    cwd,
    name,
    defaults: DEFAULT_APP_STORE_DATA,
    schema: buildAppStoreJsonSchema(),
    projectVersion: STORE_FORMAT_VERSION,
    migrations: MIGRATIONS,
    clearInvalidConfig: false,
  });
}

/** False when the file exists and is not JSON of the stored shape; true when absent. */
function isStoredFileReadable(filePath: string): boolean {
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return true;
    throw error;
  }
  try {
    return storedFileSchema.safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
}

/** Moves an unreadable file aside (a copy, then removal) and answers the notice about it. */
function setAsideFile(filePath: string, time: number): DesktopNotice {
  const stamp = new Date(time).toISOString().replace(/[:.]/g, '-');
  const { dir, name } = path.parse(filePath);
  const backupPath = path.join(dir, `${name}.corrupt-${stamp}.json`);
  let isCopied = true;
  try {
    copyFileSync(filePath, backupPath);
  } catch {
    isCopied = false;
  }
  rmSync(filePath, { force: true });
  return {
    id: `store-reset-${stamp}`,
    level: 'warning',
    message: isCopied
      ? `Shelfwatch couldn't read its saved data, so it started fresh. A copy was kept at ${backupPath}.`
      : "Shelfwatch couldn't read its saved data, so it started fresh.",
  };
}
