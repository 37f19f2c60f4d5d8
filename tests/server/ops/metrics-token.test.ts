import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  hasMetricsToken,
  METRICS_TOKEN_FILE,
  resolveMetricsToken,
} from '#server/ops/metrics-token.ts';

let dataDir: string;
let file: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-metrics-token-'));
  file = path.join(dataDir, METRICS_TOKEN_FILE);
});
afterEach(async () => rm(dataDir, { recursive: true, force: true }));

const modeOf = async (target: string): Promise<number> => (await stat(target)).mode & 0o777;

describe('resolveMetricsToken', () => {
  it('uses METRICS_TOKEN as it is and writes no file', async () => {
    expect(await resolveMetricsToken({ configured: 'my token', dataDir })).toEqual({
      token: 'my token',
      file: undefined,
    });
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('makes a long random token on the first start, readable by the owner only, and reuses it', async () => {
    const first = await resolveMetricsToken({ configured: undefined, dataDir });
    expect(first.file).toBe(file);
    expect(first.token).toMatch(/^[\w-]{43}$/);
    expect(await readFile(file, 'utf8')).toBe(`${first.token}\n`);
    expect(await modeOf(file)).toBe(0o600);
    expect(await resolveMetricsToken({ configured: undefined, dataDir })).toEqual(first);
    // Nothing is left beside it.
    expect(await readdir(dataDir)).toEqual([METRICS_TOKEN_FILE]);
  });

  it('makes the data folder when it does not exist yet', async () => {
    const nested = path.join(dataDir, 'new', 'data');
    const made = await resolveMetricsToken({ configured: undefined, dataDir: nested });
    expect(await readFile(path.join(nested, METRICS_TOKEN_FILE), 'utf8')).toBe(`${made.token}\n`);
  });

  it('gives processes starting together on one data folder the same token', async () => {
    const tokens = await Promise.all(
      Array.from({ length: 8 }, () => resolveMetricsToken({ configured: undefined, dataDir })),
    );
    expect(new Set(tokens.map((made) => made.token)).size).toBe(1);
    expect(await readFile(file, 'utf8')).toBe(`${tokens[0].token}\n`);
  });

  it('keeps a token an operator wrote there and narrows its permissions to the owner', async () => {
    await writeFile(file, '  scrape-me-please  \n');
    await chmod(file, 0o644);
    const kept = await resolveMetricsToken({ configured: undefined, dataDir });
    expect(kept.token).toBe('scrape-me-please');
    expect(await modeOf(file)).toBe(0o600);
  });

  it('replaces an empty file with a new token', async () => {
    await writeFile(file, '\n', { mode: 0o600 });
    const made = await resolveMetricsToken({ configured: undefined, dataDir });
    expect(made.token).toMatch(/^[\w-]{43}$/);
    expect(await readFile(file, 'utf8')).toBe(`${made.token}\n`);
    expect(await modeOf(file)).toBe(0o600);
  });

  it('refuses a file that cannot be a bearer token, naming it and what to do', async () => {
    await writeFile(file, 'two words\n', { mode: 0o600 });
    await expect(resolveMetricsToken({ configured: undefined, dataDir })).rejects.toThrow(
      `The metrics token file ${file} does not hold one line of printable ASCII without spaces`,
    );
  });

  it('says which file could not be written and that METRICS_TOKEN avoids it', async () => {
    const blocker = path.join(dataDir, 'not-a-folder');
    await writeFile(blocker, '');
    await expect(resolveMetricsToken({ configured: undefined, dataDir: blocker })).rejects.toThrow(
      /metrics token file .*not-a-folder\/metrics-token .*set METRICS_TOKEN instead/,
    );
  });
});

describe('hasMetricsToken', () => {
  it('accepts exactly `Bearer <token>`', () => {
    expect(hasMetricsToken('Bearer abc', 'abc')).toBe(true);
    for (const header of [undefined, '', 'abc', 'Bearer ab', 'Bearer abcd', 'bearer abc']) {
      expect(hasMetricsToken(header, 'abc'), String(header)).toBe(false);
    }
  });
});
