import { useEffect, useRef } from 'react';
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
  // One login per visit: in the app `login` (and `navigate`) change identity as the login's
  // own progress re-renders the tree, which must not start another login.
  const hasStarted = useRef(false);
  useEffect(() => {
    if (hasStarted.current) return;
    hasStarted.current = true;
    const settled = login('/').catch((error: unknown) =>
      console.error('Login could not start', error),
    );
    // On the website the login leaves for the sign-in page. The app signs in in the system
    // browser while its window stays here, so it goes back to / once the login settles (the
    // login banner tells how it went) instead of spinning on.
    if (isDesktop) {
      void settled.then(() => navigate('/', { replace: true }));
    }
  }, [login, isDesktop, navigate]);
  return <SpinnerScreen label="Redirecting to login..." />;
}
