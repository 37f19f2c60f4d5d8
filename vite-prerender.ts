import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Beasties from 'beasties';
import { build, type Plugin } from 'vite';
import { selectProjectFiles } from './bin/site-build-inputs.ts';

/** The pre-rendered landing page beside index.html; the server sends it for `/`. */
export const LANDING_PAGE_FILE = 'landing.html';

/** The landing page's <title>, as its usePageTitle sets it once the app runs. */
const LANDING_TITLE = 'Apple Store stock alerts | Shelfwatch';

/** Options of the landing page's pre-rendering. */
type PrerenderOptions = { rootDir: string; configFile: string; entry: string };

/** The client build's index.html with the pre-rendered page in #root and its own title. */
export function composeLandingPage(indexHtml: string, rootHtml: string): string {
  const withRoot = indexHtml.replace(
    /<div id="root">[\s\S]*?<\/div>/,
    () => `<div id="root" data-prerendered="landing">${rootHtml}</div>`,
  );
  if (withRoot === indexHtml) throw new Error('index.html has no <div id="root"> to fill');
  return withRoot.replace(/<title>[^<]*<\/title>/, `<title>${LANDING_TITLE}</title>`);
}

/**
 * Inlines the CSS the landing page's own markup uses (Bootstrap's variables, reboot, navbar,
 * buttons, grid, the utilities it names) into its <head>, and moves the site's stylesheet to
 * the end of <body>: the page paints from the inlined part without waiting for the whole
 * stylesheet (about 30 KB gzipped, the first paint's longest wait on a phone), which arrives
 * before the app replaces anything. `preload: 'body'` needs no inline script, which the
 * site's CSP (script-src 'self') would refuse.
 */
export async function inlineCriticalCss(html: string, outDir: string): Promise<string> {
  const beasties = new Beasties({
    path: outDir,
    publicPath: '/',
    preload: 'body',
    // The full stylesheet stays whole: every other page and the app's later screens use it.
    pruneSource: false,
    // The dark theme is chosen by a script (styles/color-scheme.ts) before the first paint, so
    // its rules match no element of the static HTML and must be kept by name.
    allowRules: [/data-bs-theme=dark/, /prefers-color-scheme/],
    fonts: false,
    logLevel: 'warn',
  });
  return await beasties.process(html);
}

/**
 * After the client build: builds renderer/prerender/landing-page.tsx for Node (an SSR build
 * with the same config, every dependency bundled), renders `/` with it and writes
 * dist/renderer/landing.html. `inputs()` answers the project files that build read, for the
 * record `npm start` compares.
 */
export function prerenderLanding(options: PrerenderOptions): Plugin & {
  inputs: () => Promise<string[]>;
} {
  let finished: Promise<string[]> = Promise.resolve([]);
  let outDir = '';
  const render = async (): Promise<string[]> => {
    // Inside the repository so Node finds node_modules from it; removed when done.
    const ssrDir = path.join(options.rootDir, 'dist', '.prerender');
    let moduleFiles: string[] = [];
    try {
      await build({
        configFile: options.configFile,
        logLevel: 'warn',
        plugins: [
          {
            name: 'shelfwatch-prerender-inputs',
            generateBundle() {
              moduleFiles = selectProjectFiles(options.rootDir, this.getModuleIds());
            },
          },
        ],
        ssr: { noExternal: true },
        build: {
          ssr: options.entry,
          outDir: ssrDir,
          emptyOutDir: true,
          copyPublicDir: false,
          rolldownOptions: { output: { entryFileNames: 'landing-page.mjs' } },
        },
      });
      const module = (await import(pathToFileURL(path.join(ssrDir, 'landing-page.mjs')).href)) as {
        renderLandingPage: () => Promise<string>;
      };
      const rootHtml = await module.renderLandingPage();
      const indexHtml = await readFile(path.join(outDir, 'index.html'), 'utf8');
      await writeFile(
        path.join(outDir, LANDING_PAGE_FILE),
        await inlineCriticalCss(composeLandingPage(indexHtml, rootHtml), outDir),
      );
      return moduleFiles;
    } finally {
      await rm(ssrDir, { recursive: true, force: true });
    }
  };
  return {
    name: 'shelfwatch-prerender-landing',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      finished = render();
      await finished;
    },
    inputs: () => finished,
  };
}
