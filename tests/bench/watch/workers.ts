// Real `shelfwatch worker` processes (planner, poller on pg-boss, alert delivery), as an
// operator runs them against one DATABASE_URL: every worker asks through the same egress
// proxies (UPSTREAM_PROXIES, no direct route), so the addresses' buckets in PostgreSQL are
// all that paces them.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describeWorkerSettings, type Compression } from './compression.ts';

/** Running worker processes of one configuration. */
export type WorkerFleet = {
  pids: number[];
  /** Lines the workers logged (level warn and up), for the report. */
  readLogLines: () => Promise<string[]>;
  /** SIGTERM (the workers drain and deregister), SIGKILL after 20 s. */
  stop: () => Promise<void>;
};

/** Starts `count` workers with the compressed defaults; their output goes to `logFile`. */
export function startWorkerFleet(options: {
  count: number;
  repoRoot: string;
  databaseUrl: string;
  upstreamUrl: string;
  smtpUrl: string;
  /** Proxy URLs, one per egress address. */
  proxies: readonly string[];
  dataDir: string;
  compression: Compression;
  logFile: string;
}): WorkerFleet {
  const log = createWriteStream(options.logFile, { flags: 'a' });
  // Two pipes per worker end in this one stream.
  log.setMaxListeners(options.count * 2 + 10);
  const { compression } = options;
  const children: ChildProcess[] = [];
  for (let index = 0; index < options.count; index += 1) {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join('server', 'cli.ts'), 'worker'],
      {
        cwd: options.repoRoot,
        env: {
          ...process.env,
          DATABASE_URL: options.databaseUrl,
          UPSTREAM_BASE_URL: options.upstreamUrl,
          SHELFWATCH_DATA_DIR: options.dataDir,
          SMTP_URL: options.smtpUrl,
          ...describeWorkerSettings(compression),
          UPSTREAM_PROXIES: options.proxies.join(','),
          UPSTREAM_DIRECT: 'false',
          LOG_FORMAT: 'json',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    children.push(child);
  }
  const exited = children.map(
    (child) =>
      new Promise<void>((resolve) =>
        child.exitCode !== null ? resolve() : child.once('exit', () => resolve()),
      ),
  );
  let stopping: Promise<void> | undefined;
  const stop = async (): Promise<void> => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    }, 20_000);
    await Promise.all(exited);
    clearTimeout(timer);
    await new Promise<void>((resolve) => log.end(() => resolve()));
  };
  return {
    pids: children.map((child) => child.pid ?? 0),
    readLogLines: async () =>
      (await readFile(options.logFile, 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line.trim() !== ''),
    stop: async () => {
      stopping ??= stop();
      await stopping;
    },
  };
}
