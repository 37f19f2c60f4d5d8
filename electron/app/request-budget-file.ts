import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import type { BudgetStore } from '#shared/watch/local/index.ts';

// The machine's request budget at Apple as the app keeps it: a small JSON file in the app's
// folder (~/Library/Application Support/Shelfwatch), where `shelfwatch watch` finds it too
// (server/terminal-watch/request-budget-file.ts keeps the same file the same way), changed
// only under proper-lockfile's lock: a `.lock` folder beside it, taken back from a watcher
// that died holding it. The lock is held for one read and one write, never during a request.

/** The budget file's name in the app's folder. */
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
