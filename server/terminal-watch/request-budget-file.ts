import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import envPaths from 'env-paths';
import lockfile from 'proper-lockfile';
import type { BudgetStore } from '#shared/watch/local/index.ts';

// The machine's request budget at Apple as the terminal watcher keeps it: a small JSON file
// shared with the macOS app and other `shelfwatch watch` runs, changed only under
// proper-lockfile's lock (a `.lock` folder beside it, taken back from a watcher that died
// holding it), held for one read and one write, never during a request. The app keeps the same
// file the same way (electron/app/request-budget-file.ts); the server's code cannot import it.

/** The budget file's name, in the macOS app's folder unless SHELFWATCH_UPSTREAM_BUDGET_FILE moves it. */
export const BUDGET_FILE_NAME = 'request-budget.json';

const LOCK_OPTIONS = {
  // The file may not exist yet; the lock folder is what is created.
  realpath: false,
  stale: 10_000,
  // Another watcher holds it for milliseconds: up to about five seconds of retries.
  retries: { retries: 50, minTimeout: 20, maxTimeout: 100 },
  // A lock lost while held (its folder removed) is not worth a crash: the write goes on.
  onCompromised: () => undefined,
};

/**
 * Where the budget file is: the given path, else the macOS app's folder
 * (env-paths' data folder for "Shelfwatch" is ~/Library/Application Support/Shelfwatch, the
 * app's userData), so the app and the terminal share one budget; elsewhere the same name in
 * the platform's data folder.
 */
export function resolveBudgetFile(configured: string | undefined): string {
  if (configured !== undefined && configured.trim() !== '') return path.resolve(configured);
  return path.join(envPaths('Shelfwatch', { suffix: '' }).data, BUDGET_FILE_NAME);
}

/** What the file holds; missing or unreadable reads as nothing, which the budget starts afresh. */
async function readStored(filePath: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The request budget ${filePath} could not be read: ${reason}`, {
      cause: error,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The budget store over the file at `filePath`, shared with every local watcher using it. */
export function openBudgetFile(filePath: string): BudgetStore {
  return {
    update: async (change) => {
      let release: () => Promise<void>;
      try {
        await mkdir(path.dirname(filePath), { recursive: true });
        release = await lockfile.lock(filePath, LOCK_OPTIONS);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`The request budget ${filePath} could not be locked: ${reason}`, {
          cause: error,
        });
      }
      try {
        const changed = change(await readStored(filePath));
        // Written whole and renamed into place: a reader never sees half a file.
        const partial = `${filePath}.${process.pid}.tmp`;
        await writeFile(partial, JSON.stringify(changed.stored));
        await rename(partial, filePath);
        return changed.result;
      } finally {
        await release().catch(() => undefined);
      }
    },
  };
}
