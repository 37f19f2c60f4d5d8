import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The file in the data folder that keeps the token a start generated (no METRICS_TOKEN set). */
export const METRICS_TOKEN_FILE = 'metrics-token';

/** The bearer token of /metrics and of /v2/status's operator view, and the file it came from. */
export type MetricsToken = {
  token: string;
  /** Where the generated token is kept; undefined when METRICS_TOKEN set it. */
  file: string | undefined;
};

// One line of visible ASCII: what an Authorization header can carry and a person can copy.
const TOKEN_PATTERN = /^[\x21-\x7e]+$/;

/** True when the Authorization header carries exactly `Bearer <token>`. */
export function hasMetricsToken(header: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Says which file failed and what to do instead, keeping the system error as the cause. */
function explainFileError(file: string, doing: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(
    `Could not ${doing} the metrics token file ${file} (${reason}); set METRICS_TOKEN instead`,
    { cause: error },
  );
}

function hasErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as Error & { code?: unknown }).code === code;
}

/**
 * The token kept in `file`: undefined when there is none yet, '' when the file is empty (a
 * copy cut short). Permissions wider than the owner's are narrowed to 600 on the way.
 */
async function readKeptToken(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (hasErrorCode(error, 'ENOENT')) return undefined;
    throw explainFileError(file, 'read', error);
  }
  const token = text.trim();
  if (token !== '' && !TOKEN_PATTERN.test(token)) {
    throw new Error(
      `The metrics token file ${file} does not hold one line of printable ASCII without spaces: ` +
        'fix it, remove it (a new token is made) or set METRICS_TOKEN',
    );
  }
  try {
    if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  } catch (error) {
    throw explainFileError(file, 'restrict to its owner (mode 600)', error);
  }
  return token;
}

/**
 * Writes a new token into `file` (mode 600) whole or not at all: it is written beside it and
 * linked into place, so two processes starting on one data folder agree on the first one's
 * token. `isReplacing` overwrites an empty file. Answers the token now in the file.
 */
async function writeNewToken(file: string, isReplacing: boolean): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  // Random, not the process id: two starts in one process (tests) must not share it.
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${token}\n`, { mode: 0o600 });
    if (isReplacing) {
      await rename(temporary, file);
      return token;
    }
    await link(temporary, file);
    return token;
  } catch (error) {
    if (!hasErrorCode(error, 'EEXIST')) throw explainFileError(file, 'write', error);
    const kept = await readKeptToken(file);
    if (kept === undefined || kept === '') throw explainFileError(file, 'write', error);
    return kept;
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * The token /metrics and the operator view of /v2/status ask for: METRICS_TOKEN as it is when
 * set; otherwise the one in the data folder's `metrics-token`, made (32 random bytes, mode 600)
 * on the first start and read on later ones, so neither is ever open by default.
 */
export async function resolveMetricsToken(options: {
  configured: string | undefined;
  dataDir: string;
}): Promise<MetricsToken> {
  if (options.configured !== undefined) return { token: options.configured, file: undefined };
  const file = path.join(options.dataDir, METRICS_TOKEN_FILE);
  try {
    await mkdir(options.dataDir, { recursive: true });
  } catch (error) {
    throw explainFileError(file, 'make the folder of', error);
  }
  const kept = await readKeptToken(file);
  if (kept !== undefined && kept !== '') return { token: kept, file };
  return { token: await writeNewToken(file, kept === ''), file };
}
