import { copyFile, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import Conf from 'conf';
import envPaths from 'env-paths';
import { z } from 'zod';
import { localSearchSchema, type LocalSearch } from '#shared/desktop/local-search.ts';

// The terminal watcher keeps its searches, settings and the watch loop's memory in one JSON
// file in the user's config folder (env-paths: ~/.config/shelfwatch-nodejs on Linux,
// ~/Library/Preferences/shelfwatch-nodejs on macOS), written atomically by conf.
// SHELFWATCH_WATCH_DIR moves it (tests, scripts).

const CONFIG_NAME = 'terminal-watch';

const fileSchema = z.object({
  searches: z.array(localSearchSchema),
  /** The watch loop's memory; the loop validates it itself and starts fresh when unreadable. */
  state: z.unknown(),
  /** The upstream the state's back-off was earned at; another one starts afresh. */
  upstream: z.string().optional(),
});

/** What the watch file holds. */
export type WatchFileData = z.infer<typeof fileSchema>;

/** The terminal watcher's storage. */
export type WatchFile = {
  readSearches: () => LocalSearch[];
  writeSearches: (searches: LocalSearch[]) => void;
  readState: () => unknown;
  writeState: (state: unknown) => void;
  readUpstream: () => string | undefined;
  writeUpstream: (upstream: string) => void;
  path: string;
};

/** The folder of the watch file: SHELFWATCH_WATCH_DIR, else the platform's config folder. */
export function resolveWatchDirectory(directory: string | undefined): string {
  return directory === undefined || directory === ''
    ? envPaths('shelfwatch', { suffix: 'nodejs' }).config
    : path.resolve(directory);
}

/** True when the file is missing or holds watch data; false when it cannot be used. */
async function isUsableFile(file: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return true;
  }
  try {
    return fileSchema.safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
}

/** Opens (or creates) the watch file; a file that is not valid is set aside and started afresh. */
export async function openWatchFile(
  directory: string | undefined = process.env.SHELFWATCH_WATCH_DIR,
): Promise<{ file: WatchFile; warning: string | null }> {
  const cwd = resolveWatchDirectory(directory);
  const filePath = path.join(cwd, `${CONFIG_NAME}.json`);
  let warning: string | null = null;
  if (!(await isUsableFile(filePath))) {
    // Keep the user's copy, then start empty rather than crash on every run.
    const backup = `${filePath}.corrupt-${Date.now()}`;
    await copyFile(filePath, backup);
    await rm(filePath, { force: true });
    warning = `The watch file could not be read, so it started empty. A copy was kept at ${backup}.`;
  }
  const store = new Conf<WatchFileData>({
    cwd,
    configName: CONFIG_NAME,
    defaults: { searches: [], state: null },
  });
  return {
    file: {
      readSearches: () => store.get('searches'),
      writeSearches: (searches) => store.set('searches', searches),
      readState: () => store.get('state'),
      writeState: (state) => store.set('state', state),
      readUpstream: () => store.get('upstream'),
      writeUpstream: (upstream) => store.set('upstream', upstream),
      path: store.path,
    },
    warning,
  };
}
