import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenVerifier } from '#server/http/auth/index.ts';
import { createIdpAccount, type IdpAccount } from '#server/identity/index.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startTestIdentityProvider, type TestIdentityProvider } from '#tests/helpers/tokens.ts';
import {
  beginAuthorization,
  CookieJar,
  followToCallback,
  postLogin,
  requestTokens,
} from './oidc-flow.ts';

const SITE = 'http://localhost:3000';
const REDIRECT_URI = `${SITE}/callback`;

describe('signing in through the embedded provider as auth0-spa-js does', () => {
  let testDb: TestDatabase;
  let idp: TestIdentityProvider;
  let account: IdpAccount;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    idp = await startTestIdentityProvider(testDb.db, { siteOrigins: [SITE] });
    account = await createIdpAccount(testDb.db, {
      email: 'Flow@Example.com',
      password: 'correct horse',
    });
  });
  afterAll(async () => {
    await idp?.close();
    await testDb?.drop();
  });

  const signIn = async (): Promise<Record<string, unknown> & { jar: CookieJar }> => {
    const pending = await beginAuthorization({
      issuer: idp.issuer,
      clientId: idp.clientId,
      redirectUri: REDIRECT_URI,
      audience: idp.audience,
    });
    const login = await postLogin(pending, 'flow@example.com', 'correct horse');
    expect(login.status).toBe(303);
    const code = await followToCallback(pending, login, REDIRECT_URI);
    const tokens = await requestTokens(idp.issuer, SITE, {
      grant_type: 'authorization_code',
      client_id: idp.clientId,
      code,
      code_verifier: pending.codeVerifier,
      redirect_uri: REDIRECT_URI,
    });
    expect(tokens.status).toBe(200);
    return { ...tokens.body, jar: pending.jar };
  };

  it('issues an RS256 JWT access token for the API audience that the API verifier accepts', async () => {
    const tokens = await signIn();
    expect(typeof tokens.access_token).toBe('string');
    const verify = createTokenVerifier({
      issuer: idp.issuer,
      audience: idp.audience,
      allowedClientIds: idp.allowedClientIds,
    });
    const verified = await verify(String(tokens.access_token));
    expect(verified).toEqual({
      issuer: idp.issuer,
      subject: account.id,
      email: 'flow@example.com',
      expiresAt: expect.any(Number) as number,
    });
  });

  it('puts the email in the ID token for the SDK getUser()', async () => {
    const tokens = await signIn();
    const idToken = decodeJwt(String(tokens.id_token));
    expect(idToken).toMatchObject({
      iss: idp.issuer,
      aud: idp.clientId,
      sub: account.id,
      email: 'flow@example.com',
    });
  });

  it('rotates refresh tokens and revokes the chain when a used one is replayed', async () => {
    const tokens = await signIn();
    const first = String(tokens.refresh_token);
    const refresh = (refreshToken: string) =>
      requestTokens(idp.issuer, SITE, {
        grant_type: 'refresh_token',
        client_id: idp.clientId,
        refresh_token: refreshToken,
      });
    const rotated = await refresh(first);
    expect(rotated.status).toBe(200);
    const second = String(rotated.body.refresh_token);
    expect(second).not.toBe(first);
    const verify = createTokenVerifier({
      issuer: idp.issuer,
      audience: idp.audience,
      allowedClientIds: idp.allowedClientIds,
    });
    await expect(verify(String(rotated.body.access_token))).resolves.toMatchObject({
      subject: account.id,
    });

    const replay = await refresh(first);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await refresh(second)).body.error).toBe('invalid_grant');
  });

  it('signs out at /v2/logout?returnTo= through a self-submitting page and lands on the site', async () => {
    const { jar } = await signIn();
    const authorizeAgain = async (): Promise<string> => {
      const url = new URL('authorize', idp.issuer);
      url.search = new URLSearchParams({
        client_id: idp.clientId,
        response_type: 'code',
        redirect_uri: REDIRECT_URI,
        scope: 'openid',
        audience: idp.audience,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString();
      const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
      jar.store(response);
      return response.headers.get('location') ?? '';
    };
    // Signed in: the provider answers at once, without the login page.
    expect(await authorizeAgain()).toMatch(/^http:\/\/localhost:3000\/callback\?code=/);

    const url = new URL('v2/logout', idp.issuer);
    url.search = new URLSearchParams({ client_id: idp.clientId, returnTo: SITE }).toString();
    const page = await fetch(url, { headers: { cookie: jar.header(), accept: 'text/html' } });
    jar.store(page);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Shelfwatch');
    expect(html).toContain("document.getElementById('op.logoutForm').submit()");
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(html).toContain('name="logout" value="yes"');

    const confirm = await fetch(action, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    jar.store(confirm);
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe(`${SITE}/`);

    // The provider session is gone: authorizing again asks for the password.
    expect(await authorizeAgain()).toMatch(/^\/interaction\//);
  });
});
