import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oidc from 'openid-client';
import { LoginError } from './login-error.ts';
import { discoverProvider, type LoginSettings } from './provider.ts';

/** What a completed login hands the app. */
export type LoginTokens = {
  accessToken: string;
  accessTokenExpiresAt: number;
  refreshToken: string;
  idTokenClaims: { sub: string; email: string | null };
};

/** A login under way in the system browser. */
export type LoopbackLogin = {
  /** The authorization URL the browser was sent to. */
  authorizeUrl: Promise<string>;
  result: Promise<LoginTokens>;
  cancel: () => void;
};

/** Five minutes, then the listener closes: a login left open in a tab is not kept waiting for. */
export const LOGIN_TIMEOUT_MS = 5 * 60_000;

const DEFAULT_SCOPE = 'openid profile email offline_access';

/** Reads the tokens of a grant, refusing one without a refresh token (the app needs it). */
export function readTokens(
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
  now: number,
  previousRefreshToken?: string,
): LoginTokens {
  const claims = tokens.claims();
  const refreshToken = tokens.refresh_token ?? previousRefreshToken;
  if (refreshToken === undefined) {
    throw new LoginError('exchange_failed', 'The login provider sent no refresh token.');
  }
  return {
    accessToken: tokens.access_token,
    accessTokenExpiresAt: now + (tokens.expiresIn() ?? 0) * 1000,
    refreshToken,
    idTokenClaims: {
      sub: typeof claims?.sub === 'string' ? claims.sub : '',
      email: typeof claims?.email === 'string' ? claims.email : null,
    },
  };
}

/** "5 minutes", "1 minute" or "30 seconds" for the timeout message. */
function describeDuration(ms: number): string {
  if (ms < 60_000) {
    const seconds = Math.max(1, Math.round(ms / 1000));
    return `${seconds} second${seconds === 1 ? '' : 's'}`;
  }
  const minutes = Math.round(ms / 60_000);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** A small page for the browser tab once the app has the code (or why it does not). */
function renderPage(response: ServerResponse, status: number, title: string, text: string): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'cache-control': 'no-store',
  });
  response.end(
    `<!doctype html><meta charset="utf-8"><title>${title}</title>` +
      `<body style="font-family:-apple-system,system-ui,sans-serif;text-align:center;padding:4rem">` +
      `<h1 style="font-size:1.4rem">${title}</h1><p>${text}</p></body>`,
  );
}

/**
 * Logs in as RFC 8252 asks of native apps: authorization code with PKCE (S256) in the system
 * browser, back to a one-use listener on 127.0.0.1 at a random port; state is checked and
 * the code exchanged with openid-client. The listener closes when the code arrives, on
 * cancel, or after the timeout.
 */
export function startLoopbackLogin(
  settings: LoginSettings & {
    openExternal: (url: string) => Promise<unknown>;
    /**
     * Ports to listen on, tried in order (the provider must list each redirect URI); empty or
     * absent: a random free port, which a provider following RFC 8252 section 7.3 accepts.
     */
    loopbackPorts?: readonly number[];
    timeoutMs?: number;
    scope?: string;
    now?: () => number;
  },
): LoopbackLogin {
  const now = settings.now ?? Date.now;
  let settle: { resolve: (tokens: LoginTokens) => void; reject: (error: LoginError) => void };
  const result = new Promise<LoginTokens>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Callers may look at the result later (after opening the browser): not an unhandled rejection.
  result.catch(() => undefined);
  let isDone = false;
  let isAnswered = false;
  const server = createServer();
  const finish = (outcome: LoginTokens | LoginError) => {
    if (isDone) return;
    isDone = true;
    clearTimeout(timeout);
    server.close();
    server.closeAllConnections();
    if (outcome instanceof LoginError) settle.reject(outcome);
    else settle.resolve(outcome);
  };

  // The timeout covers the whole login, the provider's discovery included.
  const timeoutMs = settings.timeoutMs ?? LOGIN_TIMEOUT_MS;
  const timeout: ReturnType<typeof setTimeout> = setTimeout(
    () =>
      finish(
        new LoginError(
          'timeout',
          `Login timed out after ${describeDuration(timeoutMs)}. Please try again.`,
        ),
      ),
    timeoutMs,
  );

  const authorizeUrl = (async () => {
    let config: oidc.Configuration;
    try {
      config = await discoverProvider(settings);
    } catch (error) {
      throw new LoginError(
        'unreachable',
        `The login page could not be reached (${error instanceof Error ? error.message : String(error)}). Check your connection and try again.`,
      );
    }
    // Cancelled or timed out while the provider was being discovered: open no listener.
    if (isDone) throw new LoginError('cancelled', 'Login was cancelled.');
    await listenOnLoopback(server, settings.loopbackPorts ?? []);
    const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: settings.scope ?? DEFAULT_SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      audience: settings.audience,
      // Always the login page: a native client must not get a code from a browser session
      // silently, since another local app could pose as it on a loopback port (RFC 8252 8.6).
      prompt: 'login',
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const callback = new URL(request.url ?? '/', redirectUri);
      // One callback only: a second one (even while the first is being exchanged) is refused.
      if (callback.pathname !== '/callback' || isDone || isAnswered) {
        renderPage(response, 404, 'Nothing here', 'This login link was already used.');
        return;
      }
      isAnswered = true;
      const error = callback.searchParams.get('error');
      if (error !== null) {
        renderPage(
          response,
          400,
          'Login failed',
          'You can close this tab and try again in Shelfwatch.',
        );
        const description = callback.searchParams.get('error_description') ?? error;
        finish(
          error === 'access_denied'
            ? new LoginError('cancelled', 'Login was cancelled.')
            : new LoginError('provider_error', `The login provider refused: ${description}`),
        );
        return;
      }
      if (callback.searchParams.get('state') !== state) {
        renderPage(
          response,
          400,
          'Login failed',
          'This answer did not belong to the login Shelfwatch started.',
        );
        finish(
          new LoginError(
            'state_mismatch',
            'The login answer did not match the login Shelfwatch started. Please try again.',
          ),
        );
        return;
      }
      oidc
        .authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: verifier,
          expectedState: state,
        })
        .then((tokens) => {
          renderPage(
            response,
            200,
            "You're signed in to Shelfwatch",
            'You can close this tab and go back to the app.',
          );
          finish(readTokens(tokens, now()));
        })
        .catch((failure: unknown) => {
          renderPage(
            response,
            400,
            'Login failed',
            'You can close this tab and try again in Shelfwatch.',
          );
          finish(
            new LoginError(
              'exchange_failed',
              `The login could not be completed (${failure instanceof Error ? failure.message : String(failure)}). Please try again.`,
            ),
          );
        });
    });
    await settings.openExternal(url.href);
    return url.href;
  })();
  authorizeUrl.catch((error: unknown) =>
    finish(error instanceof LoginError ? error : new LoginError('unreachable', String(error))),
  );
  return {
    authorizeUrl,
    result,
    cancel: () => finish(new LoginError('cancelled', 'Login was cancelled.')),
  };
}

/**
 * Listens on the first free port of the list on 127.0.0.1 (or a random one for an empty list);
 * every port taken is a LoginError naming them.
 */
async function listenOnLoopback(
  server: ReturnType<typeof createServer>,
  ports: readonly number[],
): Promise<void> {
  const tryPort = (port: number) =>
    new Promise<boolean>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        server.off('listening', onListening);
        if (error.code === 'EADDRINUSE') resolve(false);
        else reject(error);
      };
      const onListening = () => {
        server.off('error', onError);
        resolve(true);
      };
      server.once('error', onError);
      server.once('listening', onListening);
      server.listen(port, '127.0.0.1');
    });
  for (const port of ports.length === 0 ? [0] : ports) {
    if (await tryPort(port)) return;
  }
  throw new LoginError(
    'unreachable',
    `Shelfwatch couldn't receive the login: ports ${ports.join(', ')} on this Mac are all in use. Quit the app using them and try again.`,
  );
}
