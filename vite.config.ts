import { readdirSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import {
  CONFIG_INPUTS,
  hashInputFiles,
  selectProjectFiles,
  type BuildInputs,
} from './bin/site-build-inputs.ts';
import { prerenderLanding } from './vite-prerender.ts';
import { WEB_APP_ICON_INPUTS, webAppIcons } from './vite-web-app-icons.ts';

const rootDir = import.meta.dirname;
const COMPRESSIBLE = /\.(js|css|html|svg|md|json|webmanifest)$/;
const outDir = path.join(rootDir, 'dist', 'renderer');
const publicDir = path.join(rootDir, 'renderer', 'public');
// Beside the site, not in it: the server would publish it.
const BUILD_INPUTS_FILE = path.join(rootDir, 'dist', 'site-build-inputs.json');

/**
 * Writes .gz and .br beside every text asset so the server can send them as they are
 * (@fastify/static `preCompressed: true`) instead of compressing on each request.
 */
function precompressAssets(): Plugin {
  return {
    name: 'shelfwatch-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? '';
      await Promise.all(
        Object.values(bundle).map(async (output) => {
          if (!COMPRESSIBLE.test(output.fileName)) return;
          const source = output.type === 'chunk' ? output.code : output.source;
          const bytes = typeof source === 'string' ? Buffer.from(source) : Buffer.from(source);
          if (bytes.length < 1024) return;
          const file = path.join(outDir, output.fileName);
          await writeFile(`${file}.gz`, gzipSync(bytes, { level: 9 }));
          await writeFile(
            `${file}.br`,
            brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          );
        }),
      );
    },
  };
}

/**
 * Records every project file the build read, with its hash, in dist/site-build-inputs.json:
 * `npm start` (bin/build-site.ts --if-changed) skips the build while they are all unchanged.
 */
function recordBuildInputs(extraFiles: () => Promise<readonly string[]>): Plugin {
  let moduleFiles: string[] = [];
  let isSiteFolder = true;
  return {
    name: 'shelfwatch-build-inputs',
    apply: 'build',
    configResolved(config) {
      // A build into another folder (`--outDir`) says nothing about dist/renderer.
      isSiteFolder = path.resolve(config.build.outDir) === outDir;
    },
    async buildStart() {
      // A build that fails half way must not leave a record saying the old site is current.
      await rm(BUILD_INPUTS_FILE, { force: true });
    },
    generateBundle() {
      moduleFiles = selectProjectFiles(rootDir, this.getModuleIds());
    },
    async closeBundle() {
      if (!isSiteFolder) return;
      const publicFiles = readdirSync(publicDir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(rootDir, path.join(entry.parentPath, entry.name)));
      const inputs: BuildInputs = {
        files: await hashInputFiles(rootDir, [
          ...moduleFiles,
          ...publicFiles,
          ...CONFIG_INPUTS,
          ...(await extraFiles()),
        ]),
      };
      await writeFile(BUILD_INPUTS_FILE, `${JSON.stringify(inputs, null, 1)}\n`);
    },
  };
}

/**
 * react-router's package.json exports only its development build (dev warnings included), even
 * to production bundlers (remix-run/react-router#12532, #14753). Its production build sits
 * beside it; the site's builds use that one (5 KB less gzipped on every page).
 */
export const REACT_ROUTER_PRODUCTION_ALIASES = [
  {
    find: /^react-router$/,
    replacement: path.join(rootDir, 'node_modules/react-router/dist/production/index.mjs'),
  },
  {
    find: /^react-router\/dom$/,
    replacement: path.join(rootDir, 'node_modules/react-router/dist/production/dom-export.mjs'),
  },
];

// The boot's own chunks: the browser finds their imports itself as each arrives.
const BOOT_CHUNK = /^assets\/(react-dom|main|landing)-[\w-]+\.js$/;

/**
 * What Vite's preload helper adds as `<link rel="modulepreload">` before a dynamic import:
 * nothing for the boot's chunks (React's DOM renderer, main.tsx, the landing screen). Adding a
 * link costs the main thread about 2.5 ms each on this machine (more on a slow phone), some
 * 20 links in the boot's few tasks, against one more round trip while the browser reads the
 * imports itself (issue 30: total blocking time). Later screens keep their preloads.
 */
function listPreloadedDependencies(fileName: string, dependencies: string[]): string[] {
  return BOOT_CHUNK.test(fileName) ? [] : dependencies;
}

/**
 * Website build: the SPA in renderer/, emitted to dist/renderer for the API server to serve,
 * then the landing page pre-rendered from it (vite-prerender.ts runs this config again as an
 * SSR build, which gets none of the client build's own steps).
 */
export default defineConfig(({ command, isSsrBuild }) => {
  const prerender = prerenderLanding({
    rootDir,
    configFile: path.join(rootDir, 'vite.config.ts'),
    entry: path.join(rootDir, 'renderer', 'prerender', 'landing-page.tsx'),
  });
  return {
    root: path.join(rootDir, 'renderer'),
    resolve: { alias: command === 'build' ? REACT_ROUTER_PRODUCTION_ALIASES : [] },
    base: '/',
    // Copied as is to the site root: the service worker must be served from /sw.js so its scope
    // covers every page (a worker under /assets/ could only control /assets/).
    publicDir,
    plugins:
      isSsrBuild === true
        ? [react()]
        : [
            react(),
            webAppIcons(),
            precompressAssets(),
            prerender,
            recordBuildInputs(async () => [...(await prerender.inputs()), ...WEB_APP_ICON_INPUTS]),
          ],
    build: {
      outDir,
      emptyOutDir: true,
      // Markdown pages are fetched as files (spec: a GET per text page), never inlined.
      assetsInlineLimit: (file) => (file.endsWith('.md') ? false : undefined),
      target: 'es2022',
      // The login SDK and the phone-number metadata are big but load only where needed.
      chunkSizeWarningLimit: 450,
      modulePreload: { resolveDependencies: listPreloadedDependencies },
      rolldownOptions: {
        output: {
          // Each script is evaluated as one task: splitting the framework off the app keeps the
          // main thread's first tasks short (Lighthouse's total blocking time).
          codeSplitting: {
            groups: [
              { name: 'react-dom', test: /node_modules[\\/](react-dom|scheduler)[\\/]/ },
              { name: 'axios', test: /node_modules[\\/]axios[\\/]/ },
            ],
          },
        },
      },
    },
    server: {
      port: 5173,
      // The dev server proxies what the API serves so `vite` works beside `npm start`.
      proxy: {
        '/app-config.json': 'http://localhost:3000',
        '/v2': 'http://localhost:3000',
      },
      fs: { allow: [rootDir] },
    },
  };
});
