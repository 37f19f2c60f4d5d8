import { useMemo, type ReactNode } from 'react';
import { AuthContext, type AuthState } from './auth-context.tsx';

/** Shown when a screen of the app asks for a login the app cannot start. */
export const DESKTOP_LOGIN_UNAVAILABLE =
  'Logging in from the app is not available in this version. Your search on this Mac keeps working.';

/**
 * Login state inside the macOS app. The app works without an account (its free local
 * search), so it starts signed out; a login cannot be started from here yet, and saying so
 * beats sending the user to a website sign-in that would not sign the app in.
 */
export function DesktopAuthProvider({ children }: { children: ReactNode }) {
  const state = useMemo<AuthState>(() => {
    const unavailable = () => Promise.reject(new Error(DESKTOP_LOGIN_UNAVAILABLE));
    return {
      isLoading: false,
      isAuthenticated: false,
      user: null,
      login: unavailable,
      logout: () => Promise.resolve(),
      getAccessToken: unavailable,
      completeLogin: unavailable,
    };
  }, []);
  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>;
}
