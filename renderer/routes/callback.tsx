import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../auth/auth-context.tsx';
import { hasCallbackParams } from '../auth/callback-params.ts';
import { SpinnerScreen } from '#renderer/components/layout/spinner-screen.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';

/**
 * /callback: completes the login redirect, then goes where the login started. Opened without
 * a login answer (a bookmark, a reload after the code was used), it just goes home.
 */
export function CallbackRoute() {
  usePageTitle('Signing in');
  const { completeLogin } = useAuth();
  const navigate = useNavigate();

  useEffect(() => {
    if (!hasCallbackParams(window.location.search)) {
      void navigate('/', { replace: true });
      return;
    }
    completeLogin(window.location.href).then(
      ({ returnTo }) => navigate(returnTo, { replace: true }),
      (error: unknown) => {
        console.error('Login redirect could not be completed', error);
        const message = error instanceof Error ? error.message : 'Login failed.';
        return navigate(`/error?error_message=${encodeURIComponent(`Login failed: ${message}`)}`, {
          replace: true,
        });
      },
    );
  }, [completeLogin, navigate]);

  return <SpinnerScreen label="Signing you in..." />;
}
