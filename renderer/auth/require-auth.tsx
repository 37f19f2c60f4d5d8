import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { SpinnerScreen } from '../components/spinner-screen.tsx';
import { useAuth } from './auth-context.tsx';

/** Guard for signed-in screens: signed-out users go to login and come back here after. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  const returnTo = `${location.pathname}${location.search}${location.hash}`;
  const mustLogin = !auth.isLoading && !auth.isAuthenticated;

  useEffect(() => {
    if (mustLogin) {
      auth.login(returnTo).catch((error: unknown) => console.error('Login could not start', error));
    }
  }, [mustLogin, auth, returnTo]);

  if (auth.isLoading || mustLogin) {
    return <SpinnerScreen label="Signing you in..." />;
  }
  return <>{children}</>;
}
