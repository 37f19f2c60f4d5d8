import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppConfig } from '#server/config/app-config.ts';
import { createDatabase, type Db } from './database.ts';
import {
  connectEmbeddedPostgres,
  ensureDatabase,
  findRunningPostmaster,
  startEmbeddedPostgres,
  type EmbeddedCluster,
  type RestartEvent,
} from './embedded-postgres.ts';

/** Where the stack's data lives: an embedded cluster in the data folder, or DATABASE_URL. */
export type DatabaseSource =
  { kind: 'embedded'; port: number; directory: string; isShared: boolean } | { kind: 'url' };

/** An open database, and the cluster this process started for it, if any. */
export type OpenedDatabase = {
  db: Db;
  connectionString: string;
  /** Stops what this process started; a shared cluster is left running. */
  cluster: EmbeddedCluster | undefined;
  source: DatabaseSource;
};

/**
 * Opens DATABASE_URL, or the embedded cluster of the data folder. When that cluster already
 * runs (its postmaster.pid names a live process on a listening port), `isSharing` connects
 * to it (the CLI and workers beside `npm start`); otherwise this is refused with a message
 * saying who holds the folder, since a second postmaster cannot start on it.
 *
 * On the embedded cluster, `asApplication` (the server and workers) migrates as the owner,
 * then connects as APPLICATION_ROLE, which is no superuser; without it (the command line:
 * backups, restores, `db migrate`) the connection is the owner's.
 */
export async function openDatabase(
  config: AppConfig,
  options: {
    isSharing: boolean;
    asApplication?: boolean;
    onPostgresLog?: (line: string) => void;
    /** Reports idle connections the server dropped (default: stderr). */
    warn?: (line: string) => void;
  },
): Promise<OpenedDatabase> {
  if (config.databaseUrl !== undefined) {
    return {
      db: createDatabase(config.databaseUrl, undefined, options.warn),
      connectionString: config.databaseUrl,
      cluster: undefined,
      source: { kind: 'url' },
    };
  }
  await mkdir(config.dataDir, { recursive: true });
  const directory = path.join(config.dataDir, 'postgres');
  const passwordFile = path.join(config.dataDir, 'postgres-password');
  const running = await findRunningPostmaster(directory);
  if (running !== undefined && !options.isSharing) {
    throw new Error(
      `The data folder ${config.dataDir} is in use: its embedded PostgreSQL runs (pid ${running.pid}, port ${running.port}), ` +
        'most likely for another `npm start`. Stop that one first (Ctrl-C in its terminal), or set ' +
        `SHELFWATCH_DATA_DIR to another folder. If no Shelfwatch runs, \`kill ${running.pid}\` stops the leftover cluster.`,
    );
  }
  const cluster =
    running === undefined
      ? await startOrShareCluster(config, directory, passwordFile, options)
      : { ...running, cluster: await shareCluster(running.port, passwordFile), isShared: true };
  let connectionString = cluster.cluster.connectionString('shelfwatch');
  try {
    await ensureDatabase(cluster.cluster, 'shelfwatch');
    if (options.asApplication === true) {
      connectionString = await connectAsApplication(
        config.dataDir,
        connectionString,
        cluster.port,
        options.warn,
      );
    }
  } catch (error) {
    if (!cluster.isShared) await cluster.cluster.stop();
    throw error;
  }
  return {
    db: createDatabase(connectionString, undefined, options.warn),
    connectionString,
    cluster: cluster.cluster,
    source: { kind: 'embedded', port: cluster.port, directory, isShared: cluster.isShared },
  };
}

/** Starts the data folder's cluster; a sharing caller that lost a race to start it joins the winner. */
async function startOrShareCluster(
  config: AppConfig,
  directory: string,
  passwordFile: string,
  options: {
    isSharing: boolean;
    onPostgresLog?: (line: string) => void;
    warn?: (line: string) => void;
  },
): Promise<{ cluster: EmbeddedCluster; port: number; isShared: boolean }> {
  const password = await loadOrCreateSecretFile(passwordFile);
  const warn = options.warn ?? ((line: string) => console.error(line));
  try {
    const cluster = await startEmbeddedPostgres({
      directory,
      port: config.embeddedPgPort,
      password,
      onLog: options.onPostgresLog,
      // The process that started the cluster keeps it running: the API answers 503 meanwhile.
      supervise: { onRestart: (event) => warn(describeRestart(event)) },
    });
    return { cluster, port: config.embeddedPgPort, isShared: false };
  } catch (error) {
    const winner = options.isSharing ? await findRunningPostmaster(directory) : undefined;
    if (winner === undefined) throw error;
    return {
      cluster: await shareCluster(winner.port, passwordFile),
      port: winner.port,
      isShared: true,
    };
  }
}

/** One line of the embedded cluster's supervisor. */
function describeRestart(event: RestartEvent): string {
  switch (event.kind) {
    case 'exited':
      return `Embedded PostgreSQL (pid ${event.pid}) exited; restarting it`;
    case 'restarted':
      return `Embedded PostgreSQL is back (attempt ${event.attempt})`;
    case 'failed':
      return (
        `Embedded PostgreSQL did not restart (attempt ${event.attempt}: ` +
        `${event.error instanceof Error ? event.error.message : String(event.error)}); ` +
        `trying again in ${Math.round(event.retryInMs / 1000)} s`
      );
  }
}

async function shareCluster(port: number, passwordFile: string): Promise<EmbeddedCluster> {
  const password = await readFile(passwordFile, 'utf8').catch((error: unknown) => {
    throw new Error(
      `The embedded PostgreSQL runs, but its password file ${passwordFile} cannot be read`,
      {
        cause: error,
      },
    );
  });
  return connectEmbeddedPostgres({ port, password: password.trim() });
}

/**
 * Migrates as the owner, prepares the application role (created on the first start after
 * issue 43 in a data folder made before it) and answers the role's connection string. Its
 * password is generated into the data folder, beside the owner's.
 */
async function connectAsApplication(
  dataDir: string,
  ownerUrl: string,
  port: number,
  warn: ((line: string) => void) | undefined,
): Promise<string> {
  const password = await loadOrCreateSecretFile(path.join(dataDir, 'postgres-app-password'));
  const [{ migrateToLatest }, { APPLICATION_ROLE, prepareApplicationRole }] = await Promise.all([
    import('./migrate.ts'),
    import('./application-role.ts'),
  ]);
  const ownerDb = createDatabase(ownerUrl, 2, warn);
  try {
    await migrateToLatest(ownerDb);
    await prepareApplicationRole(ownerDb, ownerUrl, password);
  } finally {
    await ownerDb.destroy();
  }
  const url = new URL(ownerUrl);
  url.username = APPLICATION_ROLE;
  url.password = encodeURIComponent(password);
  url.port = String(port);
  return url.toString();
}

/**
 * Reads a generated secret from `file`, creating it (mode 600) on first use. The file is
 * created exclusively: of two processes starting at once, both keep the one written first.
 */
async function loadOrCreateSecretFile(file: string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(24).toString('base64url');
    try {
      await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return (await readFile(file, 'utf8')).trim();
    }
  }
}
