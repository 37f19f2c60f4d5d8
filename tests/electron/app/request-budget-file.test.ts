import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRequestBudget, type BudgetStore } from '#shared/watch/local/index.ts';
import { openBudgetFile } from '#electron/app/request-budget-file.ts';
import { openBudgetFile as openTerminalBudgetFile } from '#server/terminal-watch/request-budget-file.ts';

const PACING = { burst: 8, ratePerMinute: 1, minGapMs: 0 };

/** A budget at Apple over the store, on the real clock (no gap: nothing waits). */
function createBudget(store: BudgetStore) {
  return createRequestBudget({
    store,
    baseUrl: 'https://www.apple.com',
    pacing: PACING,
    now: Date.now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
}

describe("the Mac's request budget file", () => {
  let folder: string;
  let file: string;

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-budget-'));
    file = path.join(folder, 'Shelfwatch', 'request-budget.json');
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('lets the app and `shelfwatch watch` together take no more than one burst', async () => {
    const app = createBudget(openBudgetFile(file));
    const terminal = createBudget(openTerminalBudgetFile(file));
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? app : terminal).take()),
    );
    expect(outcomes.filter((outcome) => outcome.kind === 'taken')).toHaveLength(8);
    // What a restart reads: the file holds the spent bucket.
    const stored = JSON.parse(await readFile(file, 'utf8')) as {
      addresses: Record<string, { tokens: number; last_request_at: number }>;
    };
    expect(stored.addresses['https://www.apple.com'].tokens).toBeLessThan(1);
    expect(await createBudget(openBudgetFile(file)).take()).toEqual({ kind: 'no_budget' });
  });

  it('starts afresh from a file that is not a budget, and leaves no lock behind', async () => {
    const app = createBudget(openBudgetFile(file));
    await app.take();
    await writeFile(file, '{ not json');
    expect(await app.take()).toMatchObject({ kind: 'taken' });
    const stored = JSON.parse(await readFile(file, 'utf8')) as { version: number };
    expect(stored.version).toBe(1);
    await expect(readFile(`${file}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('says which file it could not lock', async () => {
    // A plain file where the folder should be: neither the folder nor the lock can be made.
    await writeFile(path.join(folder, 'Shelfwatch'), 'not a folder');
    await expect(createBudget(openBudgetFile(file)).take()).rejects.toThrow(
      `The request budget ${file} could not be locked`,
    );
  });
});
