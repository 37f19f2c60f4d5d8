// Builds the website into dist/renderer. `--if-changed` (what `npm start` does, through
// bin/start.ts) builds only when one of the files the last build read has changed since
// (their hashes are recorded in dist/site-build-inputs.json by vite.config.ts), so a start
// with nothing changed skips the 4 s build. `npm run build` always builds.
import path from 'node:path';
import { isSiteBuildCurrent } from './site-build-inputs.ts';

const rootDir = path.resolve(import.meta.dirname, '..');
const outDir = path.join(rootDir, 'dist', 'renderer');
const recordFile = path.join(rootDir, 'dist', 'site-build-inputs.json');

/** Builds the website, or with `isIfChanged` only when its inputs changed since the last build. */
export async function buildSite(options: { isIfChanged: boolean }): Promise<void> {
  const startedAt = performance.now();
  if (options.isIfChanged && (await isSiteBuildCurrent(rootDir, outDir, recordFile))) {
    console.log(
      `Website: dist/renderer is current (no input changed since its build), build skipped (checked in ${Math.round(performance.now() - startedAt)} ms).`,
    );
    return;
  }
  console.log(
    options.isIfChanged
      ? 'Website: sources changed since the last build, building...'
      : 'Building...',
  );
  const { build } = await import('vite');
  await build({ configFile: path.join(rootDir, 'vite.config.ts'), logLevel: 'warn' });
  console.log(`Website: built in ${((performance.now() - startedAt) / 1000).toFixed(1)} s.`);
}

if (import.meta.main) {
  await buildSite({ isIfChanged: process.argv.includes('--if-changed') });
}
