import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Inputs a build reads that are not modules of the bundle: the build's own configuration, the
 * locked dependency versions (a changed package changes the output) and the compiler settings.
 */
export const CONFIG_INPUTS = ['vite.config.ts', 'package-lock.json', 'tsconfig.json'];

/** What `npm start` compares: each input file (relative to the repository) and its SHA-256. */
export type BuildInputs = { files: Record<string, string> };

/** SHA-256 of each file, keyed by its path relative to `rootDir`; a missing file is "missing". */
export async function hashInputFiles(
  rootDir: string,
  relativePaths: readonly string[],
): Promise<Record<string, string>> {
  const entries = await Promise.all(
    [...new Set(relativePaths)].sort().map(async (relative) => {
      const content = await readFile(path.join(rootDir, relative)).catch(() => undefined);
      const hash =
        content === undefined ? 'missing' : createHash('sha256').update(content).digest('hex');
      return [relative, hash] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** The project files among a bundle's module ids (no dependencies, no virtual modules). */
export function selectProjectFiles(rootDir: string, moduleIds: Iterable<string>): string[] {
  const files: string[] = [];
  for (const id of moduleIds) {
    const file = id.split('?')[0] ?? '';
    if (!path.isAbsolute(file) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
    const relative = path.relative(rootDir, file);
    if (relative.startsWith('..')) continue;
    files.push(relative);
  }
  return files;
}

/**
 * True when `outDir` holds a built site and `recordFile` says which inputs built it, all still
 * with the recorded content: building again would give the same site.
 */
export async function isSiteBuildCurrent(
  rootDir: string,
  outDir: string,
  recordFile: string,
): Promise<boolean> {
  if (!existsSync(path.join(outDir, 'index.html'))) return false;
  const recorded = await readFile(recordFile, 'utf8').then(
    (text) => JSON.parse(text) as BuildInputs,
    () => undefined,
  );
  if (recorded === undefined || Object.keys(recorded.files).length === 0) return false;
  const current = await hashInputFiles(rootDir, Object.keys(recorded.files));
  return Object.entries(recorded.files).every(([file, hash]) => current[file] === hash);
}
