import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  hashInputFiles,
  isSiteBuildCurrent,
  selectProjectFiles,
} from '../../bin/site-build-inputs.ts';

describe('npm start’s check that the website build is current', () => {
  let rootDir: string;
  let outDir: string;
  let recordFile: string;

  /** Writes the record of a build that read `files`, as vite.config.ts does after a build. */
  async function recordBuild(files: string[]): Promise<void> {
    await mkdir(outDir, { recursive: true });
    await writeFile(path.join(outDir, 'index.html'), '<div id="root"></div>');
    await writeFile(recordFile, JSON.stringify({ files: await hashInputFiles(rootDir, files) }));
  }

  beforeEach(async () => {
    rootDir = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-build-inputs-'));
    outDir = path.join(rootDir, 'dist', 'renderer');
    recordFile = path.join(rootDir, 'dist', 'site-build-inputs.json');
    await mkdir(path.join(rootDir, 'renderer'), { recursive: true });
    await writeFile(path.join(rootDir, 'renderer', 'main.tsx'), 'export {};');
    await writeFile(path.join(rootDir, 'vite.config.ts'), 'export default {};');
  });
  afterEach(async () => rm(rootDir, { recursive: true, force: true }));

  it('is current while every recorded input has its recorded content', async () => {
    await recordBuild(['renderer/main.tsx', 'vite.config.ts']);
    expect(await isSiteBuildCurrent(rootDir, outDir, recordFile)).toBe(true);
  });

  it('is not once an input changed, disappeared, or the site or its record is missing', async () => {
    await recordBuild(['renderer/main.tsx', 'vite.config.ts']);
    await writeFile(path.join(rootDir, 'renderer', 'main.tsx'), 'export const changed = 1;');
    expect(await isSiteBuildCurrent(rootDir, outDir, recordFile)).toBe(false);

    await recordBuild(['renderer/main.tsx', 'vite.config.ts']);
    await rm(path.join(rootDir, 'vite.config.ts'));
    expect(await isSiteBuildCurrent(rootDir, outDir, recordFile)).toBe(false);

    await writeFile(path.join(rootDir, 'vite.config.ts'), 'export default {};');
    await recordBuild(['renderer/main.tsx', 'vite.config.ts']);
    await rm(path.join(outDir, 'index.html'));
    expect(await isSiteBuildCurrent(rootDir, outDir, recordFile)).toBe(false);

    await recordBuild(['renderer/main.tsx']);
    await rm(recordFile);
    expect(await isSiteBuildCurrent(rootDir, outDir, recordFile)).toBe(false);
  });

  it('records project files only: no dependencies, no virtual modules, query strings dropped', () => {
    expect(
      selectProjectFiles(rootDir, [
        path.join(rootDir, 'renderer', 'main.tsx'),
        `${path.join(rootDir, 'assets', 'hero.svg')}?url`,
        path.join(rootDir, 'node_modules', 'react', 'index.js'),
        '\0vite/preload-helper',
        path.join(os.tmpdir(), 'elsewhere.ts'),
      ]),
    ).toEqual(['renderer/main.tsx', 'assets/hero.svg']);
  });
});
