import { appConfigSchema } from '#shared/api/app-config.ts';
import { LoginError } from '#electron/auth/login-error.ts';
import { startLoopbackLogin, type LoopbackLogin } from '#electron/auth/loopback-login.ts';
import type { LoginSettings } from '#electron/auth/provider.ts';
import { toIssuerUrl, type DesktopConfig } from '#electron/config/desktop-config.ts';
import type { AuthSession } from '#electron/auth/auth-session.ts';
import type { LoginAttempt } from './account-bridge.ts';

/**
 * Where the app signs in: the configured provider, else the one the website names in its
 * /app-config.json (same tenant and audience as the site). A failed look-up is retried on
 * the next need rather than remembered.
 */
export function createLoginSettingsResolver(
  config: DesktopConfig,
  fetchConfig: typeof fetch,
): () => Promise<LoginSettings> {
  let resolved: Promise<LoginSettings> | null = null;
  const resolve = async (): Promise<LoginSettings> => {
    if (config.authDomain !== null && config.authAudience !== null) {
      return {
        issuer: toIssuerUrl(config.authDomain),
        clientId: config.authClientId,
        audience: config.authAudience,
      };
    }
    const response = await fetchConfig(`${config.siteUrl}/app-config.json`, {
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new Error(`${config.siteUrl} answered HTTP ${response.status}`);
    const site = appConfigSchema.parse(await response.json());
    return {
      issuer: toIssuerUrl(config.authDomain ?? site.auth.domain),
      clientId: config.authClientId,
      audience: config.authAudience ?? site.auth.audience,
    };
  };
  return () => {
    resolved ??= resolve().catch((error: unknown) => {
      resolved = null;
      throw new LoginError(
        'unreachable',
        `Shelfwatch couldn't reach ${config.siteUrl} to log in (${error instanceof Error ? error.message : String(error)}).`,
      );
    });
    return resolved;
  };
}

/** Starts a login in the system browser and keeps its tokens in the session when it completes. */
export function startDesktopLogin(deps: {
  settings: () => Promise<LoginSettings>;
  session: AuthSession;
  openExternal: (url: string) => Promise<unknown>;
  /** Loopback ports to try in order; empty: a random free one. */
  loopbackPorts?: readonly number[];
}): LoginAttempt {
  let login: LoopbackLogin | null = null;
  let isCancelled = false;
  const result = deps.settings().then(async (settings) => {
    if (isCancelled) throw new LoginError('cancelled', 'Login was cancelled.');
    login = startLoopbackLogin({
      ...settings,
      openExternal: deps.openExternal,
      loopbackPorts: deps.loopbackPorts,
    });
    await deps.session.setTokens(await login.result);
  });
  return {
    result,
    cancel: () => {
      isCancelled = true;
      login?.cancel();
    },
  };
}
