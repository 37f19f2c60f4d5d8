// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuth } from '#renderer/auth/auth-context.tsx';
import { AuthProvider } from '#renderer/auth/auth-provider.tsx';
import {
  createTokenCache,
  readCachedAccessToken,
  readCachedLogin,
} from '#renderer/auth/token-cache.ts';
import { testConfig } from '#tests/renderer/test-harness.tsx';

const CLIENT = testConfig.auth.clientId;
const AUDIENCE = testConfig.auth.audience;
const NOW_MS = 1_800_000_000_000;
const TOKEN_KEY = `@@auth0spajs@@::${CLIENT}::${AUDIENCE}::openid profile email offline_access`;
const USER_KEY = `@@auth0spajs@@::${CLIENT}::@@user@@`;

/** Stores what the SDK stores after a login: the token entry and the user entry. */
function storeLogin(expiresAt: number, storage: Storage = window.localStorage): void {
  const cache = createTokenCache(storage);
  void cache.set(TOKEN_KEY, {
    body: { access_token: 'cached-token', refresh_token: 'refresh', audience: AUDIENCE },
    expiresAt,
  });
  void cache.set(USER_KEY, {
    id_token: 'id-token',
    decodedToken: { claims: { sub: 'user-1' }, user: { sub: 'user-1', email: 'a@b.example' } },
  });
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe('the login token cache', () => {
  it('keeps entries under the keys the SDK gives them, as JSON in local storage', async () => {
    storeLogin(NOW_MS / 1000 + 3600);
    expect(JSON.parse(window.localStorage.getItem(TOKEN_KEY) ?? '')).toMatchObject({
      body: { access_token: 'cached-token' },
    });
    const cache = createTokenCache();
    expect(await cache.allKeys?.()).toEqual(expect.arrayContaining([TOKEN_KEY, USER_KEY]));
    await cache.remove(TOKEN_KEY);
    expect(await cache.get(TOKEN_KEY)).toBeUndefined();
  });

  it('answers the cached user and a token valid for more than a minute', () => {
    storeLogin(NOW_MS / 1000 + 3600);
    expect(readCachedLogin(CLIENT, AUDIENCE, window.localStorage, NOW_MS)).toEqual({
      user: { sub: 'user-1', email: 'a@b.example' },
      accessToken: 'cached-token',
    });
  });

  it('leaves a token expiring within a minute, another audience or client to the SDK', () => {
    storeLogin(NOW_MS / 1000 + 30);
    expect(readCachedAccessToken(CLIENT, AUDIENCE, window.localStorage, NOW_MS)).toBeUndefined();
    expect(readCachedLogin(CLIENT, AUDIENCE, window.localStorage, NOW_MS)).toBeUndefined();
    storeLogin(NOW_MS / 1000 + 3600);
    expect(
      readCachedAccessToken(CLIENT, 'https://other.example', window.localStorage, NOW_MS),
    ).toBeUndefined();
    expect(
      readCachedAccessToken('other-client', AUDIENCE, window.localStorage, NOW_MS),
    ).toBeUndefined();
  });

  it('ignores entries that are not JSON', () => {
    window.localStorage.setItem(USER_KEY, '{not json');
    window.localStorage.setItem(TOKEN_KEY, 'nope');
    expect(readCachedLogin(CLIENT, AUDIENCE, window.localStorage, NOW_MS)).toBeUndefined();
  });
});

/** Shows the provider's login state and the token it hands the API client. */
function LoginProbe() {
  const auth = useAuth();
  return (
    <p>
      {auth.isLoading
        ? 'loading'
        : auth.isAuthenticated
          ? `signed in as ${auth.user?.email}`
          : 'signed out'}
    </p>
  );
}

describe('AuthProvider with a cached login', () => {
  it('is signed in at once and sends the cached token without the SDK', async () => {
    storeLogin(Math.floor(Date.now() / 1000) + 3600);
    let token: Promise<string> | undefined;
    function TokenProbe() {
      const auth = useAuth();
      token ??= auth.getAccessToken();
      return null;
    }
    render(
      <AuthProvider config={testConfig}>
        <LoginProbe />
        <TokenProbe />
      </AuthProvider>,
    );
    expect(screen.getByText('signed in as a@b.example')).toBeTruthy();
    await waitFor(() => expect(token).toBeDefined());
    expect(await token).toBe('cached-token');
  });
});
