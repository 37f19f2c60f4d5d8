import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import type { DesktopHost } from '#shared/bridge.ts';
import type { DesktopAuthStatus } from '#shared/desktop/local-search.ts';
import { unwrapHostResult } from '../api/host-errors.ts';
import { AuthContext, type AuthState } from './auth-context.tsx';

/** What the app shows about a login in the browser: waiting, or why it failed. */
export type DesktopLoginState = {
  isInFlight: boolean;
  error: string | null;
  cancel: () => void;
  clearError: () => void;
};

/** The app's login progress, for the banner under the navbar. */
export const DesktopLoginContext = createContext<DesktopLoginState | null>(null);

/** The login progress inside the app; null on the website. */
export function useDesktopLogin(): DesktopLoginState | null {
  return useContext(DesktopLoginContext);
}

// The window never holds tokens: API calls go through the main process (bridge-adapter.ts).
const rejectTokenRequest = () =>
  Promise.reject(new Error('The app calls the API through its main process'));

/**
 * Login state inside the macOS app. Signing in happens in the system browser, driven by the
 * main process; the window only asks for it, waits, and reads the outcome. Signed out, the
 * app keeps working with its search on this Mac.
 */
export function DesktopAuthProvider({
  desktop,
  children,
}: {
  desktop: DesktopHost;
  children: ReactNode;
}) {
  const [status, setStatus] = useState<DesktopAuthStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isInFlight, setIsInFlight] = useState(false);
  const refresh = useCallback(() => {
    unwrapHostResult(desktop.auth.status()).then(setStatus, (failure: unknown) => {
      console.error('Login state could not be read', failure);
      setStatus({ is_signed_in: false, email: null, is_login_in_flight: false });
    });
  }, [desktop]);
  useEffect(() => {
    refresh();
    return desktop.onAuthChanged(refresh);
  }, [desktop, refresh]);

  const state = useMemo<AuthState>(
    () => ({
      isLoading: status === null,
      isAuthenticated: status?.is_signed_in === true,
      user: status?.is_signed_in === true ? { sub: 'desktop', email: status.email } : null,
      login: async () => {
        setError(null);
        setIsInFlight(true);
        try {
          setStatus(await unwrapHostResult(desktop.auth.login()));
        } catch (failure) {
          const message = failure instanceof Error ? failure.message : 'Login failed.';
          setError(message);
          throw failure;
        } finally {
          setIsInFlight(false);
        }
      },
      logout: async () => {
        setStatus(await unwrapHostResult(desktop.auth.logout()));
      },
      getAccessToken: rejectTokenRequest,
      completeLogin: () => Promise.resolve({ returnTo: '/' }),
    }),
    [desktop, status],
  );
  const login = useMemo<DesktopLoginState>(
    () => ({
      isInFlight,
      error,
      cancel: () => {
        void desktop.auth.cancelLogin();
      },
      clearError: () => setError(null),
    }),
    [desktop, error, isInFlight],
  );
  return (
    <AuthContext.Provider value={state}>
      <DesktopLoginContext.Provider value={login}>{children}</DesktopLoginContext.Provider>
    </AuthContext.Provider>
  );
}
