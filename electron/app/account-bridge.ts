import { buildErrorBody, ERROR_CODES } from '#shared/api/errors.ts';
import type { ApiRequest, ApiResponse } from '#shared/desktop/ipc-contract.ts';
import type { DesktopAuthStatus } from '#shared/desktop/local-search.ts';
import { DesktopError } from '#electron/ipc/desktop-error.ts';

/** What the account bridge needs of the login session (electron/auth). */
export type AccountSession = {
  isSignedIn: () => boolean;
  getUser: () => { sub: string; email: string | null } | null;
  getAccessToken: () => Promise<string>;
  logout: () => Promise<unknown>;
};

/** A login in the system browser that can be awaited or cancelled. */
export type LoginAttempt = { result: Promise<unknown>; cancel: () => void };

/** Login, logout and API calls for the window; tokens never leave the main process. */
export type AccountBridge = {
  status: () => DesktopAuthStatus;
  login: () => Promise<DesktopAuthStatus>;
  cancelLogin: () => null;
  logout: () => Promise<DesktopAuthStatus>;
  request: (request: ApiRequest) => Promise<ApiResponse>;
  isLoginInFlight: () => boolean;
};

/** Reads an error's message for the user, keeping a login failure's own words. */
function describeFailure(error: unknown, fallback: string): string {
  return error instanceof Error && error.message !== '' ? error.message : fallback;
}

/** Creates the bridge over a session, a login starter and the API's origin. */
export function createAccountBridge(deps: {
  session: AccountSession;
  startLogin: () => LoginAttempt;
  apiBaseUrl: string;
  fetch: typeof fetch;
  onChange: () => void;
  log: (message: string, error?: unknown) => void;
}): AccountBridge {
  let attempt: LoginAttempt | null = null;
  const status = (): DesktopAuthStatus => ({
    is_signed_in: deps.session.isSignedIn(),
    email: deps.session.getUser()?.email ?? null,
    is_login_in_flight: attempt !== null,
  });
  return {
    status,
    isLoginInFlight: () => attempt !== null,
    login: async () => {
      // One login at a time: a second click waits for the one already in the browser.
      const current = attempt ?? deps.startLogin();
      attempt = current;
      deps.onChange();
      try {
        await current.result;
      } catch (error) {
        // A LoginError carries its code as `reason` (electron/auth/login-error.ts).
        const code =
          typeof (error as { reason?: unknown }).reason === 'string'
            ? (error as { reason: string }).reason
            : 'login_failed';
        throw new DesktopError(code, describeFailure(error, 'Login failed. Please try again.'));
      } finally {
        if (attempt === current) attempt = null;
        deps.onChange();
      }
      return status();
    },
    cancelLogin: () => {
      attempt?.cancel();
      return null;
    },
    logout: async () => {
      try {
        await deps.session.logout();
      } catch (error) {
        deps.log('The login could not be revoked at the provider; it was cleared here', error);
      }
      deps.onChange();
      return status();
    },
    request: async (request) => {
      if (!deps.session.isSignedIn()) {
        return {
          status: 401,
          body: buildErrorBody(ERROR_CODES.unauthenticated, 'Not logged in', {
            reason: 'Log in to see your account.',
          }),
        };
      }
      let token: string;
      try {
        token = await deps.session.getAccessToken();
      } catch (error) {
        deps.onChange();
        throw new DesktopError('unauthenticated', describeFailure(error, 'Please log in again.'));
      }
      const url = new URL(`${deps.apiBaseUrl.replace(/\/+$/, '')}/v2${request.path}`);
      for (const [key, value] of Object.entries(request.params ?? {})) {
        url.searchParams.set(key, String(value));
      }
      const hasBody = request.body !== undefined && request.method !== 'GET';
      let response: Response;
      try {
        response = await deps.fetch(url, {
          method: request.method,
          headers: {
            Accept: 'application/json',
            Authorization: `Bearer ${token}`,
            ...(hasBody ? { 'Content-Type': 'application/json' } : {}),
          },
          body: hasBody ? JSON.stringify(request.body) : undefined,
          signal: AbortSignal.timeout(30_000),
        });
      } catch (error) {
        deps.log('API request failed', error);
        throw new DesktopError(
          'offline',
          "Shelfwatch couldn't reach your account. Your searches on this Mac keep working.",
        );
      }
      const text = await response.text();
      let body: unknown = null;
      if (text !== '') {
        try {
          body = JSON.parse(text) as unknown;
        } catch {
          body = buildErrorBody(
            'invalid_response',
            `Not JSON: HTTP ${response.status} ${response.headers.get('content-type') ?? ''}`.trim(),
            {
              reason: "Shelfwatch's server answered something unreadable. Please try again later.",
            },
          );
        }
      }
      return { status: response.status, body };
    },
  };
}
