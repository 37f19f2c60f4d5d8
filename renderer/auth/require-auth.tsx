import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { NotFoundMessage } from '#renderer/components/layout/not-found-message.tsx';
import { SpinnerScreen } from '#renderer/components/layout/spinner-screen.tsx';
import { useHost } from '../host/host-context.tsx';
import { useAuth } from './auth-context.tsx';

/**
 * Guard for signed-in screens: signed-out users go to login and come back here after. With
 * `isLocalAllowed`, the macOS app shows the screen signed out too (its searches live on the Mac).
 */
export function RequireAuth({
  children,
  isLocalAllowed = false,
}: {
  children: ReactNode;
  isLocalAllowed?: boolean;
}) {
  const auth = useAuth();
  const host = useHost();
  const location = useLocation();
  const [loginError, setLoginError] = useState<string | null>(null);
  const returnTo = `${location.pathname}${location.search}${location.hash}`;
  const isOpenHere = isLocalAllowed && host.kind === 'desktop';
  const mustLogin = !isOpenHere && !auth.isLoading && !auth.isAuthenticated;

  useEffect(() => {
    if (mustLogin) {
      auth.login(returnTo).catch((error: unknown) => {
        console.error('Login could not start', error);
        setLoginError(error instanceof Error ? error.message : 'Login could not start.');
      });
    }
  }, [mustLogin, auth, returnTo]);

  if (isOpenHere) return <>{children}</>;
  if (mustLogin && loginError !== null) {
    return (
      <NotFoundMessage
        title="Please log in"
        text={loginError}
        linkTo="/"
        linkText="Back to My Searches"
      />
    );
  }
  if (auth.isLoading || mustLogin) {
    return <SpinnerScreen label="Signing you in..." />;
  }
  return <>{children}</>;
}
