import { cp } from 'node:fs/promises';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import electron from 'vite-plugin-electron';

const rootDir = import.meta.dirname;
/** Where the macOS app's bundles go; electron-builder packs this folder (electron-builder.yml). */
const outDir = path.join(rootDir, 'dist', 'desktop');

/** Copies the menu-bar template images beside the main bundle (main.ts reads tray/ there). */
function copyTrayImages(): Plugin {
  return {
    name: 'shelfwatch-tray-images',
    apply: 'build',
    async closeBundle() {
      await cp(path.join(rootDir, 'assets', 'tray'), path.join(outDir, 'tray'), {
        recursive: true,
      });
    },
  };
}

/**
 * The macOS app's build: the website's renderer into dist/desktop/renderer (served by the
 * main process over app://), and through vite-plugin-electron the main process
 * (dist/desktop/main.js, ESM) and the sandboxed preload (dist/desktop/preload.cjs, one
 * CommonJS file that only requires `electron`). JS dependencies are bundled into main.js, so
 * the packaged app carries no node_modules; only `electron` and Node's builtins stay external.
 */
export default defineConfig({
  root: path.join(rootDir, 'renderer'),
  base: '/',
  publicDir: false,
  plugins: [
    react(),
    // vite-plugin-electron merges these with its own defaults through Vite's mergeConfig,
    // which concatenates arrays: a `lib.formats` given here would be added to the plugin's
    // (['es'], from package.json "type": "module") and build the bundle twice, once per format,
    // into the same file name. So main keeps the plugin's ES format, and the preload is not a
    // lib build at all but a plain input with a CommonJS output (as the plugin's own preload
    // preset in vite-plugin-electron/simple does).
    electron([
      {
        entry: path.join(rootDir, 'electron', 'main.ts'),
        vite: {
          root: rootDir,
          build: {
            outDir,
            emptyOutDir: false,
            target: 'node22',
            sourcemap: true,
            lib: {
              entry: path.join(rootDir, 'electron', 'main.ts'),
              fileName: () => 'main.js',
            },
          },
        },
      },
      {
        vite: {
          root: rootDir,
          build: {
            outDir,
            emptyOutDir: false,
            target: 'chrome130',
            rolldownOptions: {
              input: path.join(rootDir, 'electron', 'preload.ts'),
              // A sandboxed preload is one classic script: CommonJS, no chunks, only `electron`
              // left to require (the plugin keeps `electron` and Node's builtins external).
              output: { format: 'cjs', codeSplitting: false, entryFileNames: 'preload.cjs' },
            },
          },
        },
      },
    ]),
    copyTrayImages(),
  ],
  build: {
    outDir: path.join(outDir, 'renderer'),
    emptyOutDir: true,
    target: 'chrome130',
    assetsInlineLimit: (file) => (file.endsWith('.md') ? false : undefined),
    chunkSizeWarningLimit: 1500,
  },
});
