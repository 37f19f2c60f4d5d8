import { lazy, Suspense } from 'react';
import { useAuth } from '../auth/auth-context.tsx';
import { loadChunk } from '../components/chunk-loading.ts';
import { SpinnerScreen } from '../components/spinner-screen.tsx';

// Each half of / is its own chunk so visitors never download the signed-in screens.
const LandingScreen = lazy(() =>
  loadChunk(() => import('./landing.tsx')).then((module) => ({ default: module.LandingScreen })),
);
const MySearchesScreen = lazy(() =>
  loadChunk(() => import('./my-searches.tsx')).then((module) => ({
    default: module.MySearchesScreen,
  })),
);

/** "/": landing page signed out, My Searches signed in, a spinner while login state loads. */
export function HomeRoute() {
  const auth = useAuth();
  if (auth.isLoading) {
    return <SpinnerScreen />;
  }
  return (
    <Suspense fallback={<SpinnerScreen />}>
      {auth.isAuthenticated ? <MySearchesScreen /> : <LandingScreen />}
    </Suspense>
  );
}
