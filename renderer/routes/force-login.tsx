import { useEffect } from 'react';
import { useAuth } from '../auth/auth-context.tsx';
import { SpinnerScreen } from '#renderer/components/layout/spinner-screen.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';

/** /force_login: goes straight to login, returning to / afterwards. */
export function ForceLoginRoute() {
  usePageTitle('Log in');
  const { login } = useAuth();
  useEffect(() => {
    login('/').catch((error: unknown) => console.error('Login could not start', error));
  }, [login]);
  return <SpinnerScreen label="Redirecting to login..." />;
}
