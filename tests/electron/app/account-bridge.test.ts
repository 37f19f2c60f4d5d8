import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccountBridge, type AccountSession } from '#electron/app/account-bridge.ts';
import { DesktopError } from '#electron/ipc/desktop-error.ts';

/** A local API that echoes what it received, to see what the main process sends. */
let server: Server;
let apiBaseUrl: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.url?.startsWith('/v2/status')) {
        // A proxy's error page instead of the API's JSON.
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end('<html><body>Bad gateway</body></html>');
        return;
      }
      const status = request.url?.startsWith('/v2/searches/my_searches') ? 403 : 200;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          method: request.method,
          url: request.url,
          authorization: request.headers.authorization ?? null,
          body: body === '' ? null : (JSON.parse(body) as unknown),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiBaseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A session that is signed in (or not) with a fixed token. */
function createSession(isSignedIn: boolean): AccountSession {
  return {
    isSignedIn: () => isSignedIn,
    getUser: () => (isSignedIn ? { sub: 'user-1', email: 'pat@example.com' } : null),
    getAccessToken: () => Promise.resolve('secret-token'),
    logout: vi.fn(() => Promise.resolve()),
  };
}

describe('the account bridge of the main process', () => {
  it('calls the API with the token the window never sees, and hands back status and body', async () => {
    const bridge = createAccountBridge({
      session: createSession(true),
      startLogin: () => ({ result: Promise.resolve(), cancel: () => undefined }),
      apiBaseUrl,
      fetch,
      onChange: () => undefined,
      log: () => undefined,
    });
    const answer = await bridge.request({
      method: 'PATCH',
      path: '/account',
      body: { email: 'pat@example.com' },
    });
    expect(answer).toEqual({
      status: 200,
      body: {
        method: 'PATCH',
        url: '/v2/account',
        authorization: 'Bearer secret-token',
        body: { email: 'pat@example.com' },
      },
    });
    const refused = await bridge.request({ method: 'GET', path: '/searches/my_searches' });
    expect(refused.status).toBe(403);
  });

  it('turns an answer that is not JSON into an error body with a sentence for the person', async () => {
    const bridge = createAccountBridge({
      session: createSession(true),
      startLogin: () => ({ result: Promise.resolve(), cancel: () => undefined }),
      apiBaseUrl,
      fetch,
      onChange: () => undefined,
      log: () => undefined,
    });
    await expect(bridge.request({ method: 'GET', path: '/status' })).resolves.toEqual({
      status: 502,
      body: {
        code: 'invalid_response',
        reason: "Shelfwatch's server answered something unreadable. Please try again later.",
        message: 'Not JSON: HTTP 502 text/html',
      },
    });
  });

  it('answers 401 without calling the API when signed out', async () => {
    const fetchSpy = vi.fn(fetch);
    const bridge = createAccountBridge({
      session: createSession(false),
      startLogin: () => ({ result: Promise.resolve(), cancel: () => undefined }),
      apiBaseUrl,
      fetch: fetchSpy,
      onChange: () => undefined,
      log: () => undefined,
    });
    await expect(bridge.request({ method: 'GET', path: '/account' })).resolves.toEqual({
      status: 401,
      body: {
        code: 'unauthenticated',
        reason: 'Log in to see your account.',
        message: 'Not logged in',
      },
    });
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('runs one login at a time, reports it in flight, and passes a failure on with its words', async () => {
    let reject: (error: Error) => void = () => undefined;
    const cancel = vi.fn(() =>
      reject(Object.assign(new Error('Login was cancelled.'), { reason: 'cancelled' })),
    );
    const startLogin = vi.fn(() => ({
      result: new Promise<void>((_resolve, fail) => {
        reject = fail;
      }),
      cancel,
    }));
    const bridge = createAccountBridge({
      session: createSession(false),
      startLogin,
      apiBaseUrl,
      fetch,
      onChange: () => undefined,
      log: () => undefined,
    });
    const first = bridge.login();
    const second = bridge.login();
    expect(bridge.status().is_login_in_flight).toBe(true);
    expect(startLogin).toHaveBeenCalledTimes(1);
    bridge.cancelLogin();
    await expect(first).rejects.toMatchObject({
      code: 'cancelled',
      reason: 'Login was cancelled.',
      message: 'Login was cancelled.',
    });
    await expect(second).rejects.toBeInstanceOf(DesktopError);
    expect(bridge.status().is_login_in_flight).toBe(false);
  });
});
