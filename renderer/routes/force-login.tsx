import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/auth-context.tsx';
import { SpinnerScreen } from '#renderer/components/layout/spinner-screen.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';
import { useHost } from '#renderer/host/host-context.tsx';

/** /force_login: goes straight to login, returning to / afterwards. */
export function ForceLoginRoute() {
  usePageTitle('Log in');
  const { login } = useAuth();
  const host = useHost();
  const navigate = useNavigate();
  const isDesktop = host.kind === 'desktop';
  useEffect(() => {
    const started = login('/').catch((error: unknown) =>
      console.error('Login could not start', error),
    );
    // On the website the login leaves this page for the sign-in page. The app signs in in the
    // system browser and the window stays here, so it goes back to / once the login settles
    // (the login banner tells how it went) instead of spinning on.
    if (isDesktop) {
      void started.then(() => navigate('/', { replace: true }));
    }
  }, [login, isDesktop, navigate]);
  return <SpinnerScreen label="Redirecting to login..." />;
}
