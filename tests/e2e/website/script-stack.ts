import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '#server/config/app-config.ts';
import { startStack } from '#server/stack.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';

/** A throwaway stack for the screenshot and bench scripts (outside vitest). */
export type ScriptStack = {
  baseUrl: string;
  demo: { email: string; password: string };
  stop: () => Promise<void>;
};

/**
 * Starts the product as `npm start` does (embedded PostgreSQL, login provider, simulator) in
 * a temporary data folder on free ports, with the demo Premium account and its searches.
 */
export async function startScriptStack(options: { isWatching: boolean }): Promise<ScriptStack> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-web-script-'));
  // Embedded PostgreSQL runs as an unprivileged user when started by root: let it in.
  await chmod(dataDir, 0o755);
  const password = 'demo-password-for-screenshots';
  const config = loadConfig({
    PORT: String(await getFreePort()),
    IDP_PORT: String(await getFreePort()),
    SIMULATOR_PORT: String(await getFreePort()),
    EMBEDDED_PG_PORT: String(await getFreePort()),
    SHELFWATCH_DATA_DIR: dataDir,
    SHELFWATCH_DEMO_PASSWORD: password,
    LOG_LEVEL: 'warn',
    // The watcher fills demo searches with (simulated) stock; benchmarks want a quiet machine.
    WATCH_ENABLED: String(options.isWatching),
  });
  const stack = await startStack(config);
  return {
    baseUrl: stack.siteUrl,
    demo: { email: stack.demo?.email ?? 'demo@shelfwatch.local', password },
    stop: async () => {
      await stack.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
