import { createContext, useContext } from 'react';

/** The signed-in user as the ID token describes them. */
export type AuthUser = { sub: string; email: string | null };

/** What screens need from login: state plus the few actions the spec names. */
export type AuthState = {
  isLoading: boolean;
  isAuthenticated: boolean;
  user: AuthUser | null;
  /** Starts a redirect login; after it the app navigates to returnTo. */
  login: (returnTo: string) => Promise<void>;
  /** Logs out at the provider and returns to the site origin. */
  logout: () => Promise<void>;
  /** A bearer token for the API, renewed silently (refresh token) when needed. */
  getAccessToken: () => Promise<string>;
  /** Completes the login redirect on /callback and answers where to go next. */
  completeLogin: (url: string) => Promise<{ returnTo: string }>;
};

/** Login state and actions for the whole app. */
export const AuthContext = createContext<AuthState | null>(null);

/** The current login state; throws outside the provider (a programming error). */
export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (auth === null) {
    throw new Error('useAuth used outside AuthContext');
  }
  return auth;
}
