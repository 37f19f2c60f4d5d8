import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const rootDir = import.meta.dirname;
const COMPRESSIBLE = /\.(js|css|html|svg|md|json)$/;

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

/** Website build: the SPA in renderer/, emitted to dist/renderer for the API server to serve. */
export default defineConfig({
  root: path.join(rootDir, 'renderer'),
  base: '/',
  // Copied as is to the site root: the service worker must be served from /sw.js so its scope
  // covers every page (a worker under /assets/ could only control /assets/).
  publicDir: path.join(rootDir, 'renderer', 'public'),
  plugins: [react(), precompressAssets()],
  build: {
    outDir: path.join(rootDir, 'dist', 'renderer'),
    emptyOutDir: true,
    // Markdown pages are fetched as files (spec: a GET per text page), never inlined.
    assetsInlineLimit: (file) => (file.endsWith('.md') ? false : undefined),
    target: 'es2022',
    // The login SDK and the phone-number metadata are big but load only where needed.
    chunkSizeWarningLimit: 450,
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
});
