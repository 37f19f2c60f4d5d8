// `npm run bench:web`: the JavaScript a first visit downloads on the landing page and on the
// signed-in home (gzip -9 and brotli 11, in Chromium at 390 px), and Lighthouse's mobile
// performance score and LCP on the landing page (median of 3 runs). Each budget gets a check
// line; the script exits non-zero when one is missed. Issue 30 set the budgets.
import { launch as launchChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, launchBrowser } from '#tests/helpers/browser.ts';
import { measurePageJs, printPageWeight } from './page-weight.ts';
import { startScriptStack, type ScriptStack } from './script-stack.ts';
import { signIn } from './site-helpers.ts';

const LANDING_JS_BUDGET_KB = 120;
const SIGNED_IN_JS_BUDGET_KB = 180;
// Lighthouse scores swing with machine load; the median of a few runs is the usual remedy.
const LIGHTHOUSE_RUNS = 3;
// Before them, one run that is printed but not counted: the first page load of a new Chromium
// and of a server whose code is not compiled yet measured this machine's cold start, not the
// page (its blocking time was 2 to 4 times the others' here). Every run is still a first visit:
// Lighthouse clears the site's cache and storage before each.
const WARM_UP_RUNS = 1;
const SCORE_TARGET = 98;
const LCP_TARGET_MS = 2000;

type Check = { label: string; isMet: boolean; figure: string };

/** Weighs the landing page signed out and My Searches signed in, each as a first visit. */
async function measureJs(stack: ScriptStack): Promise<Check[]> {
  const browser = await launchBrowser();
  try {
    const landing = await measurePageJs(browser, `${stack.baseUrl}/`, async (page) => {
      await page
        .getByRole('heading', { name: 'Stop waiting weeks for Apple products to ship.' })
        .waitFor();
      // The example inventory has loaded (its cards or its empty text) when the lists show.
      await page.getByRole('heading', { name: 'Country support' }).waitFor();
    });
    printPageWeight('Landing page / signed out', landing);

    // Sign in once, then open / in a new context with that login (local storage) but an
    // empty HTTP cache: a signed-in user's first visit.
    const loginContext = await browser.newContext();
    const loginPage = await loginContext.newPage();
    await signIn(loginPage, stack.baseUrl, stack.demo.email, stack.demo.password);
    const storageState = await loginContext.storageState();
    await loginContext.close();
    const signedIn = await measurePageJs(
      browser,
      `${stack.baseUrl}/`,
      async (page) => {
        await page.getByRole('heading', { name: 'My Searches' }).waitFor();
        await page.getByRole('link', { name: 'View inventory' }).first().waitFor();
      },
      { storageState },
    );
    printPageWeight('Signed-in home / (My Searches)', signedIn);
    // The same visit once the access token has expired (an hour after it was issued): the login
    // SDK downloads to renew it. Printed for the record; the budget is the common case above.
    const renewing = await measurePageJs(
      browser,
      `${stack.baseUrl}/`,
      async (page) => {
        await page.getByRole('heading', { name: 'My Searches' }).waitFor();
        await page.getByRole('link', { name: 'View inventory' }).first().waitFor();
      },
      { storageState: expireAccessTokens(storageState) },
    );
    printPageWeight('Signed-in home, access token expired (SDK renews it)', renewing);
    return [
      {
        label: `landing page JS <= ${LANDING_JS_BUDGET_KB} KB gzip`,
        isMet: landing.gzipKb <= LANDING_JS_BUDGET_KB,
        figure: `${landing.gzipKb.toFixed(1)} KB gzip, ${landing.brotliKb.toFixed(1)} KB brotli`,
      },
      {
        label: `signed-in home JS <= ${SIGNED_IN_JS_BUDGET_KB} KB gzip`,
        isMet: signedIn.gzipKb <= SIGNED_IN_JS_BUDGET_KB,
        figure: `${signedIn.gzipKb.toFixed(1)} KB gzip, ${signedIn.brotliKb.toFixed(1)} KB brotli`,
      },
    ];
  } finally {
    await browser.close();
  }
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** `state` with every cached access token of the login SDK expired an hour ago. */
function expireAccessTokens(state: StorageState): StorageState {
  const expiredAt = Math.floor(Date.now() / 1000) - 3600;
  return {
    ...state,
    origins: state.origins.map((origin) => ({
      ...origin,
      localStorage: origin.localStorage.map((item) => {
        if (!item.name.startsWith('@@auth0spajs@@') || item.name.endsWith('::@@user@@'))
          return item;
        const entry = JSON.parse(item.value) as { expiresAt?: number };
        return entry.expiresAt === undefined
          ? item
          : { ...item, value: JSON.stringify({ ...entry, expiresAt: expiredAt }) };
      }),
    })),
  };
}

/** The middle value of a list of numbers. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Runs Lighthouse's mobile performance category (its default preset) and checks the medians. */
async function measureLighthouse(url: string): Promise<Check[]> {
  // Launched as Lighthouse's own command line launches it (chrome-launcher: a fresh profile and
  // its flags that switch off Chromium's background services), with this machine's Chromium.
  const chrome = await launchChrome({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless', ...CHROMIUM_ARGS],
  });
  const port = chrome.port;
  try {
    const scores: number[] = [];
    const lcps: number[] = [];
    for (let run = -WARM_UP_RUNS; run < LIGHTHOUSE_RUNS; run += 1) {
      const result = await lighthouse(url, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
      });
      const lhr = result?.lhr;
      const score = Math.round((lhr?.categories.performance?.score ?? 0) * 100);
      const lcp = lhr?.audits['largest-contentful-paint']?.numericValue ?? Number.NaN;
      const isCounted = run >= 0;
      if (isCounted) {
        scores.push(score);
        lcps.push(lcp);
      }
      const metric = (id: string) => lhr?.audits[id]?.displayValue ?? '?';
      console.log(
        `  ${isCounted ? `mobile run ${run + 1}` : 'warm-up (not counted)'}: score ${score}  FCP ${metric('first-contentful-paint')}  LCP ${metric('largest-contentful-paint')}  TBT ${metric('total-blocking-time')}  CLS ${metric('cumulative-layout-shift')}  SI ${metric('speed-index')}`,
      );
    }
    const medianScore = median(scores);
    const medianLcp = median(lcps);
    console.log(
      `  median of ${LIGHTHOUSE_RUNS}: score ${medianScore}, LCP ${(medianLcp / 1000).toFixed(2)} s`,
    );
    return [
      {
        label: `Lighthouse mobile median >= ${SCORE_TARGET}`,
        isMet: medianScore >= SCORE_TARGET,
        figure: `${medianScore} (runs ${scores.join(', ')})`,
      },
      {
        label: `landing LCP median <= ${(LCP_TARGET_MS / 1000).toFixed(1)} s`,
        isMet: medianLcp <= LCP_TARGET_MS,
        figure: `${(medianLcp / 1000).toFixed(2)} s`,
      },
    ];
  } finally {
    chrome.kill();
  }
}

/** Runs every measurement against a fresh stack and prints one check line per budget. */
async function runBench(): Promise<void> {
  const stack = await startScriptStack({ isWatching: false });
  const checks: Check[] = [];
  try {
    checks.push(...(await measureJs(stack)));
    console.log('Lighthouse (mobile preset: simulated slow 4G, 4x slower CPU) on / :');
    checks.push(...(await measureLighthouse(`${stack.baseUrl}/`)));
  } finally {
    await stack.stop();
  }
  console.log('Checks:');
  for (const check of checks) {
    console.log(`  ${check.isMet ? 'ok  ' : 'FAIL'}  ${check.label}: ${check.figure}`);
  }
  const isOnTarget = checks.every((check) => check.isMet);
  console.log(isOnTarget ? 'bench:web: on target' : 'bench:web: TARGET MISSED');
  process.exitCode = isOnTarget ? 0 : 1;
}

await runBench();
