import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import type { AppConfig } from '#shared/api/app-config.ts';
import { hasAnyLoginHint, hasLoginHint } from './auth/login-hint.ts';
import { BootErrorScreen } from './boot/boot-error-screen.tsx';
import { loadAppConfig } from './boot/load-app-config.ts';
import { loadSiteStylesheet } from './boot/site-stylesheet.ts';
import { waitForNextTask } from './boot/wait-for-next-task.ts';
import { App } from './app.tsx';
import { SpinnerScreen } from '#renderer/components/layout/spinner-screen.tsx';
import { readDesktopBridge } from './host/desktop-bridge.ts';
import { preloadLandingScreen } from './routes/home.tsx';

// Boot: the server sends `/` as the landing page pre-rendered at build time (readable before
// any script runs); a visitor's browser hydrates it once the settings and the landing page's
// code are in, without a spinner in between. Everyone else gets a spinner, then the app (or a
// readable error).
const container = document.getElementById('root');
if (container === null) {
  throw new Error('index.html has no #root element');
}
const isPrerenderedLanding =
  container.dataset.prerendered === 'landing' && window.location.pathname === '/';
let root: Root | undefined;

/**
 * Replaces whatever #root shows (the boot spinner, or a pre-rendered page) with `element`. What
 * replaces the landing page needs the site's stylesheet, which that page holds back; a failed
 * download shows where a screen waits for it (as a part of the site that could not be loaded).
 */
function renderRoot(element: React.ReactNode): void {
  loadSiteStylesheet().catch(() => undefined);
  root ??= createRoot(container!);
  root.render(element);
}

// A browser that may hold a login most likely shows My Searches: no landing page for it.
const mayBeSignedIn = hasAnyLoginHint() || readDesktopBridge() !== null;
if (!isPrerenderedLanding || mayBeSignedIn) {
  renderRoot(<SpinnerScreen label="Loading Shelfwatch..." />);
}

// A visitor's home screen is the landing page: fetch its code while the settings load (from
// the next task: starting the fetch costs the main thread a few milliseconds on a phone, which
// would lengthen this module's evaluation task). Errors are ignored here; the router reports
// them when it really needs the chunk.
const landingLoad = mayBeSignedIn
  ? Promise.resolve(undefined)
  : waitForNextTask().then(() => preloadLandingScreen().catch(() => undefined));

/** Hydrates the pre-rendered landing page; false when it cannot be (its code failed to load). */
async function hydrateLanding(config: AppConfig): Promise<boolean> {
  if ((await landingLoad) === undefined) return false;
  // As a transition, React hydrates in slices of a few milliseconds, yielding to the browser in
  // between: the page stays responsive on a slow phone (Lighthouse's total blocking time)
  // instead of one long task.
  startTransition(() => {
    hydrateRoot(
      container!,
      <StrictMode>
        <App config={config} />
      </StrictMode>,
      {
        // React renders the page again where it differs from the HTML; say so for whoever looks.
        onRecoverableError: (error) => console.warn('Pre-rendered landing page replaced', error),
      },
    );
  });
  return true;
}

loadAppConfig().then(
  async (config) => {
    if (
      root === undefined &&
      !hasLoginHint(config.auth.clientId) &&
      (await hydrateLanding(config))
    ) {
      return;
    }
    renderRoot(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
    );
  },
  (error: unknown) => {
    console.error('Site settings could not be loaded', error);
    renderRoot(<BootErrorScreen error={error} />);
  },
);
