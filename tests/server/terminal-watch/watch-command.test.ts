import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { COUNTRY_SEEDS, PRODUCT_MODEL_SEEDS, STORE_SEEDS } from '#shared/catalog/index.ts';
import { createDesktopCatalog } from '#shared/desktop/desktop-catalog.ts';
import type { LocalSearch } from '#shared/desktop/local-search.ts';
import { listNearestStoreIds } from '#shared/watch/local/index.ts';
import { startUpstreamSimulator, type RunningUpstreamSimulator } from '#server/simulator/index.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '..', '..', '..', 'bin', 'shelfwatch.js');
const catalog = createDesktopCatalog();
const [MODEL] = catalog.listModels('iphone16pro', 'US');

/** Pacing no test but the pacing tests meets: the machine's budget is theirs to prove. */
const ROOMY_PACING = {
  SHELFWATCH_UPSTREAM_BURST: '60',
  SHELFWATCH_UPSTREAM_RATE_PER_MINUTE: '600',
  SHELFWATCH_UPSTREAM_MIN_GAP_SECONDS: '0',
};

/** Searches at stores none of whose location answers lists another: a request each. */
function makeDistantSearches(count: number): LocalSearch[] {
  const picked: string[] = [];
  const isListedNear = (storeId: string, other: string) =>
    listNearestStoreIds(catalog, storeId, 12).includes(other);
  for (const { store_id: storeId } of catalog.listStores()) {
    const country = catalog.findStore(storeId)!.country_code;
    const isApart = picked.every(
      (other) => !isListedNear(storeId, other) && !isListedNear(other, storeId),
    );
    if (isApart && catalog.isSoldIn('iphone16', country)) picked.push(storeId);
    if (picked.length === count) break;
  }
  return picked.map((storeId) => ({
    id: randomUUID(),
    product_type: 'iphone16',
    store_id: storeId,
    include_nearby_store_results: false,
    show_results_only_for_preferred_models: false,
    max_distance_miles: null,
    preferred_parts: [
      catalog.listModels('iphone16', catalog.findStore(storeId)!.country_code)[0].part_number,
    ],
    created_at: '2026-01-15T12:00:00.000Z',
  }));
}

describe('shelfwatch watch (terminal watcher)', () => {
  let simulator: RunningUpstreamSimulator;
  let folder: string;
  const environment = (watchDir: string, budgetFile: string) => ({
    ...process.env,
    SHELFWATCH_WATCH_DIR: watchDir,
    SHELFWATCH_UPSTREAM_BUDGET_FILE: budgetFile,
    UPSTREAM_BASE_URL: simulator.url,
  });
  const shelfwatch = (...args: string[]) =>
    run(process.execPath, [CLI, 'watch', ...args], {
      env: { ...environment(folder, path.join(folder, 'budget.json')), ...ROOMY_PACING },
    });
  const countRequests = async () =>
    ((await (await fetch(`${simulator.url}/_sim/requests`)).json()) as { count: number }).count;

  beforeAll(async () => {
    simulator = await startUpstreamSimulator({
      port: await getFreePort(),
      seed: 9,
      stores: STORE_SEEDS,
      models: PRODUCT_MODEL_SEEDS,
      countries: COUNTRY_SEEDS,
      now: Date.now,
    });
    folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-watch-'));
  });

  afterAll(async () => {
    await simulator?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('adds and lists searches, refusing unknown stores with a clear message', async () => {
    const added = await shelfwatch(
      'add',
      '--product',
      'iphone16pro',
      '--store',
      'R095',
      '--no-nearby',
      '--prefer',
      MODEL.part_number,
    );
    expect(added.stdout).toMatch(
      /Added [0-9a-f-]{36}: iPhone 16 Pro at Fifth Avenue \(1 preferred models\)/,
    );
    const listed = await shelfwatch('list');
    expect(listed.stdout).toContain('iPhone 16 Pro at Fifth Avenue (R095), this store only');
    const refused = await shelfwatch('add', '--product', 'iphone16pro', '--store', 'R999').then(
      () => null,
      (error: { stderr: string }) => error,
    );
    expect(refused?.stderr).toContain('store_id: Unknown store');
  });

  it('lists where each type is sold and refuses a type retired in the store’s country', async () => {
    const products = await shelfwatch('products');
    expect(products.stdout).toContain('iphone17promax  iPhone 17 Pro Max  (DE)');
    expect(products.stdout).toContain('iphone18pro  iPhone 18 Pro  (AE, CA, GB, HK, TH, US)');
    const refused = await shelfwatch('add', '--product', 'iphone17promax', '--store', 'R095').then(
      () => null,
      (error: { stderr: string }) => error,
    );
    expect(refused?.stderr).toContain(
      "product_type: This product isn't sold in that store's country",
    );
  });

  it('prints the availability change once, then no alert on a run with no change', async () => {
    const flip = await fetch(`${simulator.url}/_sim/stock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        store_id: 'R095',
        part_number: MODEL.part_number,
        status: 'available',
      }),
    });
    expect(flip.status).toBe(200);
    const first = await shelfwatch('run', '--once', '--no-notify');
    expect(first.stdout).toMatch(/US iphone16pro near 10153 \(R095\)\s+ok/);
    expect(first.stdout).toContain(`IN STOCK  ${MODEL.display_name} at Fifth Avenue`);
    const second = await shelfwatch('run', '--once', '--no-notify');
    expect(second.stdout).toMatch(/US iphone16pro near 10153 \(R095\)\s+ok/);
    expect(second.stdout).not.toContain('IN STOCK');
  });

  it('packs the searches of one city into one pickup-message request per check', async () => {
    await shelfwatch('add', '--product', 'macbookair', '--store', 'R032', '--no-nearby');
    const counts = async () =>
      (await (await fetch(`${simulator.url}/_sim/requests`)).json()) as {
        count: number;
        pickup_message: number;
      };
    const before = await counts();
    const { stdout } = await shelfwatch('run', '--once', '--no-notify');
    const after = await counts();
    expect(after.count - before.count).toBe(1);
    expect(after.pickup_message - before.pickup_message).toBe(1);
    const checks = stdout.split('\n').filter((line) => /\s(ok|failed|skipped)\s/.test(line));
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatch(
      /US (iphone16pro\+macbookair|macbookair\+iphone16pro) near \S+ \(R\d+\)\s+ok/,
    );
  });

  it('refuses a pacing variable that is not a number, naming it', async () => {
    for (const [name, value] of [
      ['SHELFWATCH_UPSTREAM_BURST', 'lots'],
      ['SHELFWATCH_UPSTREAM_MIN_GAP_SECONDS', '-1'],
    ]) {
      const refused = await run(process.execPath, [CLI, 'watch', 'run', '--once', '--no-notify'], {
        env: { ...environment(folder, path.join(folder, 'budget.json')), [name]: value },
      }).then(
        () => null,
        (error: { stderr: string }) => error,
      );
      expect(refused?.stderr).toContain(`${name} is not valid: ${value}`);
    }
  });

  it('two terminal watchers sharing the budget file send one burst of 8 together, and a rerun none', async () => {
    const budgetFile = path.join(folder, 'shared-budget.json');
    const searches = makeDistantSearches(10);
    const watchDirs = await Promise.all(
      [searches.slice(0, 5), searches.slice(5)].map(async (own) => {
        const dir = await mkdtemp(path.join(folder, 'watcher-'));
        await writeFile(
          path.join(dir, 'terminal-watch.json'),
          JSON.stringify({ searches: own, state: null }),
        );
        return dir;
      }),
    );
    // The default burst and rate; a short gap keeps the test quick.
    const runIn = (dir: string) =>
      run(process.execPath, [CLI, 'watch', 'run', '--once', '--no-notify'], {
        env: { ...environment(dir, budgetFile), SHELFWATCH_UPSTREAM_MIN_GAP_SECONDS: '0.2' },
      });
    const before = await countRequests();
    const outputs = await Promise.all(watchDirs.map(runIn));
    expect((await countRequests()) - before).toBe(8);
    const skipped = outputs.flatMap(({ stdout }) =>
      stdout.split('\n').filter((line) => line.includes('request budget is spent')),
    );
    expect(skipped.length).toBeGreaterThan(0);
    // A run started again at once finds the budget spent: it asks nothing.
    const again = await runIn(watchDirs[0]);
    expect(await countRequests()).toBe(before + 8);
    expect(again.stdout).toContain('request budget is spent');
  });

  it('prints JSON lines for piping', async () => {
    const { stdout } = await shelfwatch('run', '--once', '--json', '--no-notify');
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.type === 'check' || line.type === 'alert')).toBe(true);
  });

  it('exits 2 when Apple refuses, and the next run waits out the cool-down without asking', async () => {
    const blocked = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-watch-blocked-'));
    const inBlocked = (...args: string[]) =>
      run(process.execPath, [CLI, 'watch', ...args], {
        env: { ...environment(blocked, path.join(blocked, 'budget.json')), ...ROOMY_PACING },
      });
    const control = (method: string, route: string, body?: unknown) =>
      fetch(`${simulator.url}${route}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    try {
      await inBlocked('add', '--product', 'iphone16pro', '--store', 'R095', '--no-nearby');
      await control('POST', '/_sim/fault', { kind: '541', seconds: 600 });
      const failed = await inBlocked('run', '--once', '--no-notify').then(
        () => null,
        (error: { code: number; stdout: string }) => error,
      );
      expect(failed?.code).toBe(2);
      expect(failed?.stdout).toMatch(/US iphone16pro near 10153 \(R095\)\s+failed/);
      const before = (await (await control('GET', '/_sim/requests')).json()) as { count: number };
      const waiting = await inBlocked('run', '--once', '--no-notify').then(
        () => null,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(waiting?.code).toBe(3);
      expect(waiting?.stdout).toMatch(
        /check\s+skipped\s+Apple refused requests from this machine: cooling down until/,
      );
      expect(waiting?.stderr).toMatch(/Backing off after failed checks until \d\d:\d\d:\d\d/);
      const after = (await (await control('GET', '/_sim/requests')).json()) as { count: number };
      expect(after.count).toBe(before.count);
    } finally {
      await control('DELETE', '/_sim/fault');
      await rm(blocked, { recursive: true, force: true });
    }
  });

  it('exits non-zero while backing off, says until when, and a new --upstream clears it', async () => {
    const backingOff = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-watch-backoff-'));
    const deadUpstream = `http://127.0.0.1:${await getFreePort()}`;
    const inFolder = (upstream: string, ...args: string[]) =>
      run(process.execPath, [CLI, 'watch', ...args, '--upstream', upstream], {
        env: { ...environment(backingOff, path.join(backingOff, 'budget.json')), ...ROOMY_PACING },
      });
    const outcome = (promise: Promise<{ stdout: string; stderr: string }>) =>
      promise.then(
        (done) => ({ code: 0, ...done }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    try {
      await run(
        process.execPath,
        [CLI, 'watch', 'add', '--product', 'iphone16pro', '--store', 'R095', '--no-nearby'],
        { env: environment(backingOff, path.join(backingOff, 'budget.json')) },
      );
      const failed = await outcome(inFolder(deadUpstream, 'run', '--once', '--no-notify'));
      expect(failed.code).toBe(2);
      const waiting = await outcome(inFolder(deadUpstream, 'run', '--once', '--no-notify'));
      expect(waiting.code).toBe(3);
      expect(waiting.stdout).toMatch(/skipped\s+1 backing off after failures/);
      expect(waiting.stderr).toMatch(
        /^Backing off after failed checks until \d\d:\d\d:\d\d .*corrected --upstream/m,
      );
      const asJson = await outcome(
        inFolder(deadUpstream, 'run', '--once', '--no-notify', '--json'),
      );
      expect(asJson.code).toBe(3);
      expect(asJson.stdout).toMatch(/"type":"backing_off","until":"\d{4}-/);
      const corrected = await outcome(inFolder(simulator.url, 'run', '--once', '--no-notify'));
      expect(corrected.code).toBe(0);
      expect(corrected.stdout).toMatch(/US iphone16pro near 10153 \(R095\)\s+ok/);
    } finally {
      await rm(backingOff, { recursive: true, force: true });
    }
  });

  it('sets an unreadable watch file aside instead of crashing', async () => {
    await writeFile(path.join(folder, 'terminal-watch.json'), '{ not json');
    const { stdout, stderr } = await shelfwatch('list');
    expect(stderr).toContain('could not be read, so it started empty');
    expect(stdout).toContain('No searches yet');
  });
});
