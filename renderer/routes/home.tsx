import { lazy, Suspense, useState } from 'react';
import { useAuth } from '../auth/auth-context.tsx';
import { loadChunk, loadScreenChunk } from '#renderer/components/layout/chunk-loading.ts';
import { SpinnerScreen } from '#renderer/components/layout/spinner-screen.tsx';
import { useHost } from '../host/host-context.tsx';

type LandingModule = typeof import('./landing.tsx');

// The landing page once loaded: rendered directly from then on. Hydrating the pre-rendered
// page needs it at once; a lazy component would wait a turn first.
let loadedLanding: LandingModule | undefined;

/** Loads the landing page's code (with the chunk timeout) and keeps it for HomeRoute. */
export async function preloadLandingScreen(): Promise<LandingModule> {
  loadedLanding ??= await loadChunk(() => import('./landing.tsx'));
  return loadedLanding;
}

// Each half of / is its own chunk so visitors never download the signed-in screens. Only the
// landing page makes do with the CSS inlined in the pre-rendered page; My Searches waits for
// the site's stylesheet too (boot/site-stylesheet.ts).
const LazyLandingScreen = lazy(() =>
  preloadLandingScreen().then((module) => ({ default: module.LandingScreen })),
);
const MySearchesScreen = lazy(() =>
  loadScreenChunk(() => import('./my-searches.tsx')).then((module) => ({
    default: module.MySearchesScreen,
  })),
);

/**
 * "/": landing page signed out, My Searches signed in, a spinner while login state loads. The
 * macOS app always opens on My Searches: its searches live on the Mac, no login needed.
 */
export function HomeRoute() {
  const auth = useAuth();
  const host = useHost();
  // Chosen once: switching component types later would remount the page and lose its state.
  const [LandingScreen] = useState(() => loadedLanding?.LandingScreen ?? LazyLandingScreen);
  if (auth.isLoading) {
    return <SpinnerScreen />;
  }
  return (
    <Suspense fallback={<SpinnerScreen />}>
      {auth.isAuthenticated || host.kind === 'desktop' ? <MySearchesScreen /> : <LandingScreen />}
    </Suspense>
  );
}
