import type { Auth0Client } from '@auth0/auth0-spa-js';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { AppConfig } from '#shared/api/app-config.ts';
import { loadChunk } from '#renderer/components/layout/chunk-loading.ts';
import { AuthContext, type AuthState, type AuthUser } from './auth-context.tsx';
import { hasCallbackParams } from './callback-params.ts';
import { hasLoginHint } from './login-hint.ts';
import { createTokenCache, readCachedAccessToken, readCachedLogin } from './token-cache.ts';

type LoginState = { isLoading: boolean; isAuthenticated: boolean; user: AuthUser | null };

type RedirectState = { returnTo?: string };

/** Where a login redirect came back from; a relative path inside the site, else "/". */
export function readReturnTo(appState: RedirectState | undefined): string {
  const returnTo = appState?.returnTo;
  return typeof returnTo === 'string' && returnTo.startsWith('/') && !returnTo.startsWith('//')
    ? returnTo
    : '/';
}

// One redirect callback per URL: React's strict mode runs effects twice and the SDK's
// transaction can only be completed once.
const callbacks = new Map<string, Promise<{ returnTo: string }>>();

/** Downloads the SDK and creates the login client (its checkSession included). */
async function createClient(config: AppConfig): Promise<Auth0Client> {
  const { createAuth0Client } = await loadChunk(() => import('@auth0/auth0-spa-js'));
  return createAuth0Client({
    domain: config.auth.domain,
    clientId: config.auth.clientId,
    authorizationParams: {
      redirect_uri: `${window.location.origin}/callback`,
      audience: config.auth.audience,
    },
    useRefreshTokens: true,
    // In local storage as `cacheLocation: 'localstorage'` keeps it, readable without the SDK.
    cache: createTokenCache(),
  });
}

/** Reads login state from the client after start-up or a completed redirect. */
async function readLoginState(client: Auth0Client): Promise<LoginState> {
  const isAuthenticated = await client.isAuthenticated();
  const user = isAuthenticated ? await client.getUser() : undefined;
  return {
    isLoading: false,
    isAuthenticated,
    user: user?.sub === undefined ? null : { sub: user.sub, email: user.email ?? null },
  };
}

/** Provides login through the hosted identity provider (Auth0 or the embedded one). */
export function AuthProvider({ config, children }: { config: AppConfig; children: ReactNode }) {
  // The client is created on first need: at start when a login may exist, else on login.
  const getClient = useMemo(() => {
    let client: Promise<Auth0Client> | undefined;
    return () => (client ??= createClient(config));
  }, [config]);
  // A /callback without a login answer completes nothing: the route just goes home.
  const isCompletingLogin = useMemo(
    () => window.location.pathname === '/callback' && hasCallbackParams(window.location.search),
    [],
  );
  const mayBeLoggedIn = useMemo(
    () => isCompletingLogin || hasLoginHint(config.auth.clientId),
    [config, isCompletingLogin],
  );
  // A returning user with a valid access token is signed in without downloading the SDK.
  const cachedLogin = useMemo(
    () =>
      mayBeLoggedIn && !isCompletingLogin
        ? readCachedLogin(config.auth.clientId, config.auth.audience)
        : undefined,
    [config, mayBeLoggedIn, isCompletingLogin],
  );
  const isKnownFromCache = cachedLogin !== undefined;
  const [state, setState] = useState<LoginState>(() =>
    cachedLogin === undefined
      ? { isLoading: mayBeLoggedIn, isAuthenticated: false, user: null }
      : { isLoading: false, isAuthenticated: true, user: cachedLogin.user },
  );

  useEffect(() => {
    // On /callback the redirect's completion (completeLogin) sets the state instead; a login
    // read from the cache needs the SDK only once a token must be renewed.
    if (!mayBeLoggedIn || isCompletingLogin || isKnownFromCache) {
      return undefined;
    }
    let isCurrent = true;
    getClient()
      .then(readLoginState)
      .then((next) => {
        if (isCurrent) setState(next);
      })
      .catch((error: unknown) => {
        console.error('Login state could not be read', error);
        if (isCurrent) setState({ isLoading: false, isAuthenticated: false, user: null });
      });
    return () => {
      isCurrent = false;
    };
  }, [getClient, mayBeLoggedIn, isCompletingLogin, isKnownFromCache]);

  // Actions depend only on the client, so consumers (the API clients) keep stable references.
  const actions = useMemo<Omit<AuthState, keyof LoginState>>(
    () => ({
      login: async (returnTo) => {
        const client = await getClient();
        await client.loginWithRedirect<RedirectState>({ appState: { returnTo } });
      },
      logout: async () => {
        const client = await getClient();
        await client.logout({ logoutParams: { returnTo: window.location.origin } });
      },
      getAccessToken: async () => {
        // Read on every call: another tab may have logged out or renewed meanwhile.
        const cached = readCachedAccessToken(config.auth.clientId, config.auth.audience);
        if (cached !== undefined) return cached;
        const token: string | undefined = await (await getClient()).getTokenSilently();
        if (token === undefined) {
          throw new Error('No access token: the user is not logged in');
        }
        return token;
      },
      completeLogin: (url) => {
        let pending = callbacks.get(url);
        if (pending === undefined) {
          pending = getClient().then(async (client) => {
            try {
              const result = await client.handleRedirectCallback<RedirectState>(url);
              return { returnTo: readReturnTo(result.appState) };
            } finally {
              setState(await readLoginState(client));
            }
          });
          callbacks.set(url, pending);
        }
        return pending;
      },
    }),
    [getClient, config],
  );
  const value = useMemo<AuthState>(() => ({ ...state, ...actions }), [state, actions]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
