// `npm run bench:start`: how long `npm start` takes to be healthy (GET /healthz answers 200)
// when nothing changed since the last start. It starts the product twice on one fresh data
// folder and free ports: the first start may build the website and initialises PostgreSQL;
// the second is the one a developer sees every day, with the build skipped (issue 30: <= 3 s).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getFreePort } from '#tests/helpers/free-port.ts';

const ROOT_DIR = path.resolve(import.meta.dirname, '..', '..');
const TARGET_MS = 3000;
const GIVE_UP_MS = 180_000;

type StartRun = { healthyMs: number; output: string };

/** Runs `npm start` until /healthz answers 200, then stops it (Ctrl-C to its process group). */
async function timeStart(environment: Record<string, string>, port: number): Promise<StartRun> {
  const startedAt = performance.now();
  const child: ChildProcess = spawn('npm', ['start'], {
    cwd: ROOT_DIR,
    env: { ...process.env, ...environment },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let isExited = false;
  void exited.then(() => (isExited = true));
  try {
    for (;;) {
      if (isExited) throw new Error(`npm start exited before it was healthy:\n${output}`);
      if (performance.now() - startedAt > GIVE_UP_MS)
        throw new Error('npm start never got healthy');
      const isHealthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (isHealthy) {
        const healthyMs = performance.now() - startedAt;
        // The banner follows once the rest (watcher, alert delivery) has started too.
        const bannerBy = performance.now() + 30_000;
        while (!/started in [\d.]+ s/.test(output) && !isExited && performance.now() < bannerBy) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return { healthyMs, output };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    if (!isExited && child.pid !== undefined) process.kill(-child.pid, 'SIGINT');
    await exited;
  }
}

/** The debug records that break a start's time down: module loading, then each step. */
function findDebugLines(output: string): string[] {
  const messages = output.split('\n').flatMap((line) => {
    try {
      const record = JSON.parse(line) as { msg?: unknown };
      return typeof record.msg === 'string' ? [record.msg] : [];
    } catch {
      return [];
    }
  });
  return messages.filter((msg) => /^(Node and the server's modules|Start phases)/.test(msg));
}

/** Two starts on one data folder; prints both figures and the check line for the second. */
async function runBench(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-start-bench-'));
  // Embedded PostgreSQL runs as an unprivileged user when started by root: let it in.
  await chmod(dataDir, 0o755);
  try {
    const port = await getFreePort();
    const environment = {
      PORT: String(port),
      IDP_PORT: String(await getFreePort()),
      SIMULATOR_PORT: String(await getFreePort()),
      EMBEDDED_PG_PORT: String(await getFreePort()),
      SHELFWATCH_DATA_DIR: dataDir,
      // JSON at debug: the start banner (with the server's own start time) is one record, and
      // the debug records say where the time went (modules, then each start step).
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'debug',
    };
    const first = await timeStart(environment, port);
    console.log(
      `first start (new data folder, website built if its sources changed): healthy in ${(first.healthyMs / 1000).toFixed(2)} s`,
    );
    const second = await timeStart(environment, port);
    const skipLine = second.output.split('\n').find((line) => line.startsWith('Website:'));
    console.log(
      `second start (nothing changed): healthy in ${(second.healthyMs / 1000).toFixed(2)} s`,
    );
    if (skipLine !== undefined) console.log(`  ${skipLine}`);
    // The server's own count, from its start banner ("Shelfwatch is ready (started in 1.2 s)"),
    // from the process's start to everything started (the watcher included).
    const serverPart = /started in [\d.]+ s/.exec(second.output)?.[0];
    if (serverPart !== undefined) console.log(`  the server's banner: ${serverPart}`);
    for (const line of findDebugLines(second.output)) console.log(`  ${line}`);
    const isMet = second.healthyMs <= TARGET_MS;
    console.log(
      `${isMet ? 'ok  ' : 'FAIL'}  second npm start healthy <= ${TARGET_MS / 1000} s: ${(second.healthyMs / 1000).toFixed(2)} s`,
    );
    process.exitCode = isMet ? 0 : 1;
  } finally {
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  }
}

await runBench();
