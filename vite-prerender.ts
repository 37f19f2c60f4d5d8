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
 * Inlines the CSS the landing page's markup uses, as first painted and once its example
 * inventory has loaded (`loadedRootHtml`): Bootstrap's variables, reboot, navbar, buttons,
 * grid, cards, the utilities it names. They go into its <head>, and it holds the site's
 * stylesheet back: the page paints from the inlined part, and the whole stylesheet (230 KB,
 * about 30 KB gzipped) is neither downloaded nor applied while the visitor stays on the
 * landing page. Applying it was the landing page's longest task on a phone (issue 30: total
 * blocking time). It stays linked at the end of <body>, `disabled` (which browsers neither
 * fetch nor apply) and marked `data-site-stylesheet`: the app turns it on before it shows
 * anything else (renderer/boot/site-stylesheet.ts). No inline script is involved, which the
 * site's CSP (script-src 'self') would refuse.
 */
export async function inlineCriticalCss(
  html: string,
  outDir: string,
  loadedRootHtml: string,
): Promise<string> {
  const beasties = new Beasties({
    path: outDir,
    publicPath: '/',
    preload: 'body',
    // The full stylesheet stays whole: every other page and the app's later screens use it.
    pruneSource: false,
    allowRules: LANDING_DYNAMIC_RULES,
    fonts: false,
    logLevel: 'warn',
  });
  // The loaded page's markup is in the document Beasties reads only, so its rules are kept too.
  const withLoadedPage = html.replace(
    '</body>',
    () => `${LOADED_PAGE_START}<div hidden>${loadedRootHtml}</div>${LOADED_PAGE_END}</body>`,
  );
  const processed = await beasties.process(withLoadedPage);
  const start = processed.indexOf(LOADED_PAGE_START);
  const end = processed.indexOf(LOADED_PAGE_END);
  if (start < 0 || end < start) throw new Error('The loaded landing page markup went missing');
  return holdBackSiteStylesheet(
    processed.slice(0, start) + processed.slice(end + LOADED_PAGE_END.length),
  );
}

/** Around the loaded page's markup while Beasties reads the document, then cut out. */
const LOADED_PAGE_START = '<!--shelfwatch:loaded-landing-->';
const LOADED_PAGE_END = '<!--/shelfwatch:loaded-landing-->';

/**
 * Rules the landing page needs that match no element of its static HTML: the dark theme,
 * chosen by a script (styles/color-scheme.ts) before the first paint; the navbar's menu
 * opening on a phone (react-bootstrap's `collapsing` class); the spinner that replaces the page
 * for a returning signed-in visitor. tests/e2e/website/landing-styles.test.ts checks that the
 * loaded page looks the same with the whole stylesheet as without it.
 */
const LANDING_DYNAMIC_RULES = [
  /data-bs-theme=dark/,
  /prefers-color-scheme/,
  /\.collapsing/,
  /spinner-border/,
];

/** The landing page's stylesheet link, which Beasties moved to the end of <body>. */
const SITE_STYLESHEET_LINK =
  /<link rel="stylesheet"( crossorigin)? href="(\/assets\/[^"]+\.css)">(\s*<\/body>)/;

/** Marks the site's stylesheet link `disabled` and `data-site-stylesheet` (see above). */
function holdBackSiteStylesheet(html: string): string {
  if (!SITE_STYLESHEET_LINK.test(html)) {
    throw new Error('The landing page has no site stylesheet link at the end of <body>');
  }
  return html.replace(
    SITE_STYLESHEET_LINK,
    '<link rel="stylesheet"$1 href="$2" disabled data-site-stylesheet>$3',
  );
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
        renderLoadedLandingPage: () => Promise<string>;
      };
      const rootHtml = await module.renderLandingPage();
      const loadedRootHtml = await module.renderLoadedLandingPage();
      const indexHtml = await readFile(path.join(outDir, 'index.html'), 'utf8');
      await writeFile(
        path.join(outDir, LANDING_PAGE_FILE),
        await inlineCriticalCss(composeLandingPage(indexHtml, rootHtml), outDir, loadedRootHtml),
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
