import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '#server/http/auth/index.ts';
import { createIdpAccount } from '#server/identity/index.ts';
import { DESKTOP_CLIENT_ID } from '#server/identity/configuration.ts';
import { createAuthSession } from '#electron/auth/auth-session.ts';
import { LoginError } from '#electron/auth/login-error.ts';
import { startLoopbackLogin, type LoginTokens } from '#electron/auth/loopback-login.ts';
import { launchBrowser } from '#tests/helpers/browser.ts';
import { getFreePort } from '#tests/helpers/free-port.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startTestIdentityProvider, type TestIdentityProvider } from '#tests/helpers/tokens.ts';

const EMAIL = 'mac@example.com';
const PASSWORD = 'correct horse battery';

/** A keychain stand-in that really transforms the bytes, so plain text on disk would show. */
const fakeSafeStorage = {
  isEncryptionAvailable: () => true,
  encryptString: (text: string) =>
    Buffer.from(Buffer.from(text, 'utf8').map((byte) => byte ^ 0x5a)),
  decryptString: (bytes: Buffer) => Buffer.from(bytes.map((byte) => byte ^ 0x5a)).toString('utf8'),
};

describe('logging in to the macOS app in the system browser (PKCE, loopback)', () => {
  let testDb: TestDatabase;
  let idp: TestIdentityProvider;
  let browser: Browser;
  let folder: string;
  const settings = () => ({
    issuer: idp.issuer,
    clientId: DESKTOP_CLIENT_ID,
    audience: idp.audience,
  });

  /** Signs in on the provider's own login page, as the user would in their browser. */
  const signInInBrowser = async (url: string) => {
    const page = await browser.newPage();
    await page.goto(url);
    await page.getByLabel('Email address').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText("You're signed in to Shelfwatch").waitFor();
    const callbackUrl = page.url();
    await page.close();
    return callbackUrl;
  };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    idp = await startTestIdentityProvider(testDb.db);
    await createIdpAccount(testDb.db, { email: EMAIL, password: PASSWORD });
    browser = await launchBrowser();
    folder = await mkdtemp(path.join(os.tmpdir(), 'shelfwatch-login-'));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await idp?.close();
    await testDb?.drop();
    await rm(folder, { recursive: true, force: true });
  });

  it('comes back to the first free port of a fixed list (providers that match callbacks exactly)', async () => {
    const taken = createServer();
    const busyPort = await getFreePort();
    const freePort = await getFreePort();
    await new Promise<void>((resolve) => taken.listen(busyPort, '127.0.0.1', resolve));
    try {
      const login = startLoopbackLogin({
        ...settings(),
        openExternal: async () => undefined,
        loopbackPorts: [busyPort, freePort],
      });
      const query = new URL(await login.authorizeUrl).searchParams;
      expect(query.get('redirect_uri')).toBe(`http://127.0.0.1:${freePort}/callback`);
      login.cancel();
      await expect(login.result).rejects.toBeInstanceOf(LoginError);

      const blocked = startLoopbackLogin({
        ...settings(),
        openExternal: async () => undefined,
        loopbackPorts: [busyPort],
      });
      await expect(blocked.authorizeUrl).rejects.toThrow(
        `ports ${busyPort} on this Mac are all in use`,
      );
      blocked.cancel();
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('signs in, refreshes after expiry, keeps the refresh token encrypted and revokes it on logout', async () => {
    let opened = '';
    const login = startLoopbackLogin({
      ...settings(),
      openExternal: async (url) => {
        opened = url;
      },
    });
    const authorizeUrl = await login.authorizeUrl;
    expect(opened).toBe(authorizeUrl);
    const query = new URL(authorizeUrl).searchParams;
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const callbackUrl = await signInInBrowser(authorizeUrl);
    const tokens: LoginTokens = await login.result;
    expect(tokens.idTokenClaims.email).toBe(EMAIL);
    const verify = createTokenVerifier({
      issuer: idp.issuer,
      audience: idp.audience,
      allowedClientIds: idp.allowedClientIds,
    });
    await expect(verify(tokens.accessToken)).resolves.toBeTruthy();
    // One use: the listener is gone once the code arrived, and the provider refuses the code again.
    await expect(fetch(callbackUrl)).rejects.toThrow();
    const callback = new URL(callbackUrl);
    const replay = await fetch(`${idp.issuer}oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: DESKTOP_CLIENT_ID,
        code: callback.searchParams.get('code') ?? '',
        redirect_uri: `${callback.origin}/callback`,
        code_verifier: 'x'.repeat(43),
      }),
    });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');

    let clock = Date.now();
    const filePath = path.join(folder, 'login.bin');
    const session = createAuthSession({
      settings: async () => settings(),
      safeStorage: fakeSafeStorage,
      filePath,
      now: () => clock,
    });
    await session.setTokens(tokens);
    expect((await readFile(filePath)).toString('utf8')).not.toContain(tokens.refreshToken);
    await expect(session.getAccessToken()).resolves.toBe(tokens.accessToken);

    clock = tokens.accessTokenExpiresAt + 1_000;
    const renewed = await session.getAccessToken();
    expect(renewed).not.toBe(tokens.accessToken);

    const restored = createAuthSession({
      settings: async () => settings(),
      safeStorage: fakeSafeStorage,
      filePath,
    });
    await restored.restore();
    expect(restored.getUser()?.email).toBe(EMAIL);
    const current = JSON.parse(fakeSafeStorage.decryptString(await readFile(filePath))) as {
      refreshToken: string;
    };
    expect(current.refreshToken).not.toBe(tokens.refreshToken);
    await restored.logout();
    expect(restored.isSignedIn()).toBe(false);
    await expect(readFile(filePath)).rejects.toThrow();
    const config = await oidc.discovery(
      new URL(idp.issuer),
      DESKTOP_CLIENT_ID,
      undefined,
      oidc.None(),
      { execute: [oidc.allowInsecureRequests] },
    );
    // Revoked at logout: the provider no longer honours the token the app last held.
    await expect(oidc.refreshTokenGrant(config, current.refreshToken)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('refuses an answer whose state does not match', async () => {
    const login = startLoopbackLogin({ ...settings(), openExternal: async () => undefined });
    const redirect = new URL(await login.authorizeUrl).searchParams.get('redirect_uri')!;
    const answer = await fetch(`${redirect}?code=stolen&state=not-ours`);
    expect(answer.status).toBe(400);
    await expect(login.result).rejects.toMatchObject({ reason: 'state_mismatch' });
  });

  it('gives up after the timeout and on cancel, with messages a user can act on', async () => {
    const slow = startLoopbackLogin({
      ...settings(),
      openExternal: async () => undefined,
      timeoutMs: 300,
    });
    const timedOut = await slow.result.catch((error: unknown) => error);
    expect(timedOut).toMatchObject({ reason: 'timeout' });
    expect((timedOut as Error).message).toMatch(/timed out/);
    const cancelled = startLoopbackLogin({ ...settings(), openExternal: async () => undefined });
    await cancelled.authorizeUrl;
    cancelled.cancel();
    await expect(cancelled.result).rejects.toBeInstanceOf(LoginError);
    await expect(cancelled.result).rejects.toMatchObject({
      reason: 'cancelled',
      message: 'Login was cancelled.',
    });
  });

  it('takes one callback only and opens no listener after an early cancel', async () => {
    const login = startLoopbackLogin({ ...settings(), openExternal: async () => undefined });
    const redirect = new URL(await login.authorizeUrl).searchParams.get('redirect_uri')!;
    const state = new URL(await login.authorizeUrl).searchParams.get('state')!;
    const answers = await Promise.allSettled([
      fetch(`${redirect}?code=one&state=${state}`),
      fetch(`${redirect}?code=two&state=${state}`),
    ]);
    // One is exchanged (and fails: the codes are made up); the other is refused, or finds the
    // listener already closed.
    const statuses = answers.map((answer) =>
      answer.status === 'fulfilled' ? answer.value.status : 'closed',
    );
    expect(statuses.filter((status) => status === 400)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404 || status === 'closed')).toHaveLength(1);
    await expect(login.result).rejects.toMatchObject({ reason: 'exchange_failed' });

    const early = startLoopbackLogin({ ...settings(), openExternal: async () => undefined });
    early.cancel();
    await expect(early.result).rejects.toMatchObject({ reason: 'cancelled' });
    await expect(early.authorizeUrl).rejects.toMatchObject({ reason: 'cancelled' });
  });

  it('says so when the login provider cannot be reached', async () => {
    const login = startLoopbackLogin({
      issuer: 'http://127.0.0.1:9/',
      clientId: DESKTOP_CLIENT_ID,
      audience: 'x',
      openExternal: async () => undefined,
    });
    await expect(login.result).rejects.toMatchObject({ reason: 'unreachable' });
  });
});
