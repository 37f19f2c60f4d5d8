import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SafeStorage } from 'electron';
import * as oidc from 'openid-client';
import { LoginError } from './login-error.ts';
import { readTokens, type LoginTokens } from './loopback-login.ts';
import { discoverProvider, type LoginSettings } from './provider.ts';

/** Renew the access token this long before it expires, so no request carries a stale one. */
const RENEW_BEFORE_MS = 60_000;

/** The signed-in user, from the ID token. */
export type SessionUser = { sub: string; email: string | null };

/** The app's login: the refresh token encrypted on disk, the access token in memory only. */
export type AuthSession = {
  /** Reads the stored login, if any; call once at start. */
  restore: () => Promise<void>;
  isSignedIn: () => boolean;
  getUser: () => SessionUser | null;
  /** A valid access token, renewed with the refresh token when (nearly) expired. */
  getAccessToken: () => Promise<string>;
  /** Keeps the tokens of a completed login. */
  setTokens: (tokens: LoginTokens) => Promise<void>;
  /** Revokes the refresh token at the provider, then forgets it (even if revocation failed). */
  logout: () => Promise<void>;
};

type StoredLogin = { refreshToken: string; user: SessionUser };

/**
 * Creates the session. The refresh token is written only encrypted by the system keychain
 * (safeStorage); where encryption is unavailable the app refuses to keep it rather than
 * store it in plain text (the user then logs in again next time).
 */
export function createAuthSession(deps: {
  /** Where to sign in; asked when the provider is first needed (it may come from the site). */
  settings: () => Promise<LoginSettings>;
  safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>;
  /** The encrypted file, e.g. <userData>/login.bin. */
  filePath: string;
  now?: () => number;
  log?: (message: string, error?: unknown) => void;
}): AuthSession {
  const now = deps.now ?? Date.now;
  let stored: StoredLogin | null = null;
  let access: { token: string; expiresAt: number } | null = null;
  let renewing: Promise<string> | null = null;

  const save = async (login: StoredLogin | null) => {
    if (login === null) {
      await rm(deps.filePath, { force: true });
      return;
    }
    if (!deps.safeStorage.isEncryptionAvailable()) {
      deps.log?.('Keychain encryption is unavailable: the login is kept for this run only');
      return;
    }
    await mkdir(path.dirname(deps.filePath), { recursive: true });
    const temporary = `${deps.filePath}.${process.pid}.tmp`;
    await writeFile(temporary, deps.safeStorage.encryptString(JSON.stringify(login)), {
      mode: 0o600,
    });
    await rename(temporary, deps.filePath);
  };
  const forget = async () => {
    stored = null;
    access = null;
    await save(null);
  };
  const keep = async (tokens: LoginTokens) => {
    stored = {
      refreshToken: tokens.refreshToken,
      user: tokens.idTokenClaims.sub === '' && stored !== null ? stored.user : tokens.idTokenClaims,
    };
    access = { token: tokens.accessToken, expiresAt: tokens.accessTokenExpiresAt };
    await save(stored);
  };
  const renew = async (): Promise<string> => {
    const login = stored;
    if (login === null) throw new LoginError('expired', 'Please log in.');
    const config = await deps
      .settings()
      .then(discoverProvider)
      .catch((error: unknown) => {
        throw new LoginError(
          'unreachable',
          `Your account could not be reached (${String(error)}).`,
        );
      });
    try {
      const tokens = await oidc.refreshTokenGrant(config, login.refreshToken);
      // Rotation: the provider answers a new refresh token and the old one stops working.
      await keep(readTokens(tokens, now(), login.refreshToken));
      return access!.token;
    } catch (error) {
      if (error instanceof oidc.ResponseBodyError && error.error === 'invalid_grant') {
        await forget();
        throw new LoginError('expired', 'Your login has expired. Please log in again.');
      }
      throw new LoginError('unreachable', `Your account could not be reached (${String(error)}).`);
    }
  };

  return {
    restore: async () => {
      try {
        const bytes = await readFile(deps.filePath);
        const login = JSON.parse(deps.safeStorage.decryptString(bytes)) as StoredLogin;
        if (typeof login.refreshToken === 'string' && typeof login.user?.sub === 'string')
          stored = login;
      } catch {
        // No login kept, or one this keychain cannot read: start signed out.
        stored = null;
      }
    },
    isSignedIn: () => stored !== null,
    getUser: () => stored?.user ?? null,
    getAccessToken: async () => {
      if (access !== null && access.expiresAt - RENEW_BEFORE_MS > now()) return access.token;
      renewing ??= renew().finally(() => {
        renewing = null;
      });
      return await renewing;
    },
    setTokens: keep,
    logout: async () => {
      const login = stored;
      await forget();
      if (login === null) return;
      const config = await discoverProvider(await deps.settings());
      await oidc.tokenRevocation(config, login.refreshToken, { token_type_hint: 'refresh_token' });
    },
  };
}
