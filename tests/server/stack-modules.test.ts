import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT_DIR = fileURLToPath(new URL('../..', import.meta.url));
const RECORDER = fileURLToPath(new URL('./cli/record-imports.ts', import.meta.url));

/** Packages a start does not need before it listens; they load when first used (issue 30). */
const LATER_PACKAGES = ['twilio', 'stripe', 'web-push', 'nodemailer', 'undici', 'yaml', 'pg-boss'];

describe('the modules npm start loads before it listens', () => {
  let logDir: string;
  beforeAll(async () => {
    logDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-stack-imports-'));
  });
  afterAll(async () => rm(logDir, { recursive: true, force: true }));

  it('leave out the packages only sends, billing, the update feed and the watcher need', async () => {
    const log = path.join(logDir, 'imports.log');
    const child = spawn(
      process.execPath,
      [
        '--import',
        RECORDER,
        '--input-type=module',
        '--eval',
        "await import('./server/stack.ts'); await import('./server/stack-modules.ts');",
      ],
      { cwd: ROOT_DIR, env: { ...process.env, IMPORT_LOG: log }, stdio: 'inherit' },
    );
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0);
    const urls = (await readFile(log, 'utf8')).split('\n');
    // The check sees the modules: the app's own routes are among them.
    expect(urls.some((url) => url.endsWith('/server/notify/notification-routes.ts'))).toBe(true);
    const loaded = LATER_PACKAGES.filter((name) =>
      urls.some((url) => url.includes(`/node_modules/${name}/`)),
    );
    expect(loaded).toEqual([]);
  }, 60_000);
});
