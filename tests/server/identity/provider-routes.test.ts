import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startTestIdentityProvider, type TestIdentityProvider } from '#tests/helpers/tokens.ts';

const SITE = 'http://localhost:3000';

describe('the embedded provider speaking Auth0', () => {
  let testDb: TestDatabase;
  let idp: TestIdentityProvider;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    idp = await startTestIdentityProvider(testDb.db, { siteOrigins: [SITE] });
  });
  afterAll(async () => {
    await idp?.close();
    await testDb?.drop();
  });

  it("advertises Auth0's endpoint paths in its discovery document", async () => {
    const response = await fetch(new URL('.well-known/openid-configuration', idp.issuer));
    const discovery: unknown = await response.json();
    expect(discovery).toMatchObject({
      issuer: idp.issuer,
      authorization_endpoint: `${idp.issuer}authorize`,
      token_endpoint: `${idp.issuer}oauth/token`,
      revocation_endpoint: `${idp.issuer}oauth/revoke`,
      end_session_endpoint: `${idp.issuer}v2/logout`,
      userinfo_endpoint: `${idp.issuer}userinfo`,
      jwks_uri: `${idp.issuer}.well-known/jwks.json`,
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('publishes only the public half of its RS256 signing key', async () => {
    const response = await fetch(new URL('.well-known/jwks.json', idp.issuer));
    const jwks = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('lets the site call the token endpoint cross-origin, and nobody else', async () => {
    const preflight = (origin: string) =>
      fetch(new URL('oauth/token', idp.issuer), {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,auth0-client',
        },
      });
    const fromSite = await preflight(SITE);
    expect(fromSite.headers.get('access-control-allow-origin')).toBe(SITE);

    const body = new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: idp.clientId,
      refresh_token: 'x',
    });
    const tokenCall = (origin: string) =>
      fetch(new URL('oauth/token', idp.issuer), {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
    expect((await tokenCall(SITE)).headers.get('access-control-allow-origin')).toBe(SITE);
    expect(
      (await tokenCall('http://localhost:9999')).headers.get('access-control-allow-origin'),
    ).toBeNull();
  });

  it('refuses a returnTo that is not registered for the client', async () => {
    const url = new URL('v2/logout', idp.issuer);
    url.search = new URLSearchParams({
      client_id: idp.clientId,
      returnTo: 'https://evil.example/',
    }).toString();
    const response = await fetch(url, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('Something went wrong');
    expect(html).not.toContain('op.logoutForm');
  });

  it('refuses an audience other than the API', async () => {
    const url = new URL('authorize', idp.issuer);
    url.search = new URLSearchParams({
      client_id: idp.clientId,
      response_type: 'code',
      redirect_uri: `${SITE}/callback`,
      scope: 'openid',
      audience: 'https://other-api.example/',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 'xyz',
    }).toString();
    const response = await fetch(url, { redirect: 'manual' });
    const location = new URL(response.headers.get('location') ?? '', idp.issuer);
    expect(location.origin + location.pathname).toBe(`${SITE}/callback`);
    expect(location.searchParams.get('error')).toBe('invalid_target');
  });
});
