import { lazy, Suspense } from 'react';
import { useAuth } from '../auth/auth-context.tsx';
import { loadChunk } from '../components/chunk-loading.ts';
import { SpinnerScreen } from '../components/spinner-screen.tsx';
import { useHost } from '../host/host-context.tsx';

// Each half of / is its own chunk so visitors never download the signed-in screens.
const LandingScreen = lazy(() =>
  loadChunk(() => import('./landing.tsx')).then((module) => ({ default: module.LandingScreen })),
);
const MySearchesScreen = lazy(() =>
  loadChunk(() => import('./my-searches.tsx')).then((module) => ({
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
  if (auth.isLoading) {
    return <SpinnerScreen />;
  }
  return (
    <Suspense fallback={<SpinnerScreen />}>
      {auth.isAuthenticated || host.kind === 'desktop' ? <MySearchesScreen /> : <LandingScreen />}
    </Suspense>
  );
}
