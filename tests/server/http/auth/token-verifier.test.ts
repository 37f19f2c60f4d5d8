import { createPublicKey } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTokenVerifier,
  extractBearerToken,
  TokenRejectedError,
  type TokenRejectionReason,
  type TokenVerifier,
} from '#server/http/auth/index.ts';
import { DESKTOP_CLIENT_ID } from '#server/identity/configuration.ts';
import { createIdpAccount } from '#server/identity/index.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startTestIdentityProvider, type TestIdentityProvider } from '#tests/helpers/tokens.ts';
import {
  beginAuthorization,
  followToCallback,
  postLogin,
} from '#tests/server/identity/oidc-flow.ts';

async function expectRejected(
  verify: TokenVerifier,
  token: string,
  reason: TokenRejectionReason,
): Promise<void> {
  const error: unknown = await verify(token).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(TokenRejectedError);
  expect((error as TokenRejectedError).reason).toBe(reason);
}

function encodeSegment(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function readHeader(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as Record<
    string,
    unknown
  >;
}

/** A key pair of the attacker's, with its public half as a JWK. */
type AttackerKey = {
  privateKey: CryptoKey;
  publicJwk: JWK;
};

async function createAttackerKey(kid: string): Promise<AttackerKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256' } };
}

/** An HTTP server that counts requests and serves `keys` as a JWKS at every path. */
async function startJwksServer(
  keys: JWK[],
): Promise<{ server: Server; url: string; requests: () => number }> {
  let count = 0;
  const server = createServer((_request, response) => {
    count += 1;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { server, url, requests: () => count };
}

describe('verifying API access tokens', () => {
  const SITE = 'http://localhost:3000';
  const EMAIL = 'verifier@example.com';
  const PASSWORD = 'correct horse battery';
  let testDb: TestDatabase;
  let idp: TestIdentityProvider;
  let verify: TokenVerifier;
  let providerJwk: JWK & { kid: string };
  let attacker: AttackerKey;
  let attackerJwks: Awaited<ReturnType<typeof startJwksServer>>;

  /** Signs a token as `key` with the real provider's claims and any header the attack needs. */
  const signAsAttacker = (header: Record<string, unknown>): Promise<string> =>
    new SignJWT({ client_id: idp.clientId, scope: 'openid' })
      .setProtectedHeader({ ...header, alg: 'RS256' })
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setSubject('victim')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(attacker.privateKey);

  /** Signs in through the real provider as `clientId` does and returns its access token. */
  const signInAs = async (clientId: string, redirectUri: string): Promise<string> => {
    const pending = await beginAuthorization({
      issuer: idp.issuer,
      clientId,
      redirectUri,
      audience: idp.audience,
    });
    const login = await postLogin(pending, EMAIL, PASSWORD);
    expect(login.status).toBe(303);
    const code = await followToCallback(pending, login, redirectUri);
    const response = await fetch(new URL('oauth/token', idp.issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code,
        code_verifier: pending.codeVerifier,
        redirect_uri: redirectUri,
      }).toString(),
    });
    expect(response.status).toBe(200);
    const { access_token: accessToken } = (await response.json()) as { access_token: string };
    return accessToken;
  };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    idp = await startTestIdentityProvider(testDb.db, { siteOrigins: [SITE] });
    await createIdpAccount(testDb.db, { email: EMAIL, password: PASSWORD });
    verify = createTokenVerifier({
      issuer: idp.issuer,
      audience: idp.audience,
      allowedClientIds: idp.allowedClientIds,
    });
    const jwks = (await (await fetch(new URL('.well-known/jwks.json', idp.issuer))).json()) as {
      keys: (JWK & { kid: string })[];
    };
    providerJwk = jwks.keys[0];
    attacker = await createAttackerKey('attacker-key');
    attackerJwks = await startJwksServer([attacker.publicJwk]);
  });
  afterAll(async () => {
    await new Promise((resolve) => attackerJwks?.server.close(resolve));
    await idp?.close();
    await testDb?.drop();
  });

  it('accepts the tokens the real provider issues to the website and to the macOS app', async () => {
    const websiteToken = await signInAs(idp.clientId, `${SITE}/callback`);
    const desktopToken = await signInAs(DESKTOP_CLIENT_ID, 'http://127.0.0.1:43117/callback');
    expect(decodeJwt(websiteToken).client_id).toBe(idp.clientId);
    expect(decodeJwt(desktopToken).client_id).toBe(DESKTOP_CLIENT_ID);
    await expect(verify(websiteToken)).resolves.toMatchObject({ email: EMAIL });
    await expect(verify(desktopToken)).resolves.toMatchObject({ email: EMAIL });

    const websiteOnly = createTokenVerifier({
      issuer: idp.issuer,
      audience: idp.audience,
      allowedClientIds: [idp.clientId],
    });
    await expect(websiteOnly(websiteToken)).resolves.toMatchObject({ email: EMAIL });
    await expectRejected(websiteOnly, desktopToken, 'wrong-client');
  });

  it("accepts a token signed with the provider's key and returns its subject and email", async () => {
    const token = await idp.issueAccessToken({ subject: 'user-42', email: 'someone@example.com' });
    await expect(verify(token)).resolves.toEqual({
      issuer: idp.issuer,
      subject: 'user-42',
      email: 'someone@example.com',
      expiresAt: expect.any(Number) as number,
    });
    const withoutEmail = await idp.issueAccessToken({ subject: 'user-43' });
    await expect(verify(withoutEmail)).resolves.toEqual({
      issuer: idp.issuer,
      subject: 'user-43',
      expiresAt: expect.any(Number) as number,
    });
  });

  it('rejects an expired token, tolerating a few seconds of clock skew', async () => {
    await expectRejected(
      verify,
      await idp.issueAccessToken({ subject: 'u', expiresInSeconds: -120 }),
      'expired',
    );
    await expect(
      verify(await idp.issueAccessToken({ subject: 'u', expiresInSeconds: -5 })),
    ).resolves.toMatchObject({
      subject: 'u',
    });
  });

  it('rejects a token that is not valid yet (nbf), tolerating a few seconds of clock skew', async () => {
    await expectRejected(
      verify,
      await idp.issueAccessToken({ subject: 'u', notBeforeInSeconds: 120 }),
      'not-yet-valid',
    );
    await expect(
      verify(await idp.issueAccessToken({ subject: 'u', notBeforeInSeconds: 5 })),
    ).resolves.toMatchObject({ subject: 'u' });
  });

  it('rejects a token from another issuer, even when signed with the right key', async () => {
    const token = await idp.issueAccessToken({ subject: 'u', issuer: 'https://tenant.auth0.com/' });
    await expectRejected(verify, token, 'wrong-issuer');
  });

  it('rejects a token for another audience', async () => {
    const token = await idp.issueAccessToken({
      subject: 'u',
      audience: 'https://other-api.example/',
    });
    await expectRejected(verify, token, 'wrong-audience');
  });

  it('rejects a token issued to a client that is not allowed, in client_id or azp', async () => {
    await expectRejected(
      verify,
      await idp.issueAccessToken({ subject: 'u', clientId: 'some-other-app' }),
      'wrong-client',
    );
    await expectRejected(
      verify,
      await idp.issueAccessToken({ subject: 'u', clientId: 'some-other-app', clientClaim: 'azp' }),
      'wrong-client',
    );
    await expect(
      verify(
        await idp.issueAccessToken({
          subject: 'u',
          clientId: DESKTOP_CLIENT_ID,
          clientClaim: 'azp',
        }),
      ),
    ).resolves.toMatchObject({ subject: 'u' });
  });

  it('rejects a token naming no client, a non-string client, or two different clients', async () => {
    await expectRejected(
      verify,
      await idp.issueAccessToken({ subject: 'u', clientId: null }),
      'missing-claim',
    );
    for (const extraClaims of [
      { client_id: 42 },
      { client_id: [idp.clientId] },
      { azp: null },
      { azp: 'some-other-app' },
      { azp: DESKTOP_CLIENT_ID },
    ]) {
      // client_id names the website: an azp naming anyone else (even the app) contradicts it.
      await expectRejected(
        verify,
        await idp.issueAccessToken({ subject: 'u', extraClaims }),
        'wrong-client',
      );
    }
    await expect(
      verify(await idp.issueAccessToken({ subject: 'u', extraClaims: { azp: idp.clientId } })),
    ).resolves.toMatchObject({ subject: 'u' });
  });

  it('rejects a token without a subject, or with an empty one', async () => {
    await expectRejected(verify, await idp.issueAccessToken({ subject: null }), 'missing-claim');
    await expectRejected(verify, await idp.issueAccessToken({ subject: '' }), 'missing-claim');
  });

  it('rejects unsigned ("none") tokens and HS256 tokens keyed with a secret', async () => {
    const hmac = await new SignJWT({ client_id: idp.clientId })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setSubject('u')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a shared secret that is long enough!!'));
    await expectRejected(verify, hmac, 'algorithm-not-allowed');

    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: idp.issuer,
      aud: idp.audience,
      sub: 'u',
      exp: now + 300,
      client_id: idp.clientId,
    };
    for (const alg of ['none', 'None', 'NONE']) {
      const unsigned = `${encodeSegment({ alg, typ: 'JWT' })}.${encodeSegment(claims)}.`;
      await expectRejected(verify, unsigned, 'algorithm-not-allowed');
    }
  });

  it("rejects HS256 tokens keyed with the provider's public key (algorithm confusion)", async () => {
    const publicKey = createPublicKey({ key: providerJwk, format: 'jwk' });
    const secrets = [
      publicKey.export({ type: 'spki', format: 'pem' }),
      publicKey.export({ type: 'pkcs1', format: 'pem' }),
      publicKey.export({ type: 'spki', format: 'der' }),
      Buffer.from(JSON.stringify(providerJwk)),
    ];
    for (const secret of secrets) {
      const token = await new SignJWT({ client_id: idp.clientId })
        .setProtectedHeader({ alg: 'HS256', kid: providerJwk.kid })
        .setIssuer(idp.issuer)
        .setAudience(idp.audience)
        .setSubject('u')
        .setExpirationTime('5m')
        .sign(new Uint8Array(Buffer.from(secret)));
      await expectRejected(verify, token, 'algorithm-not-allowed');
    }
  });

  it('rejects tokens signed by a key the provider does not publish', async () => {
    const foreignKid = await idp.issueForeignToken({ subject: 'u', issuer: idp.issuer });
    await expectRejected(verify, foreignKid, 'unknown-key');
    expect(readHeader(foreignKid).kid).toBe('foreign-key');
    const stolenKid = await idp.issueForeignToken({
      subject: 'u',
      issuer: idp.issuer,
      kid: providerJwk.kid,
    });
    await expectRejected(verify, stolenKid, 'bad-signature');
    await expectRejected(verify, await idp.issueForeignToken({ subject: 'u' }), 'unknown-key');
  });

  it('never fetches keys from a jku header pointing elsewhere', async () => {
    const jku = `${attackerJwks.url}.well-known/jwks.json`;
    await expectRejected(
      verify,
      await signAsAttacker({ kid: attacker.publicJwk.kid, jku }),
      'unknown-key',
    );
    await expectRejected(
      verify,
      await signAsAttacker({ kid: providerJwk.kid, jku }),
      'bad-signature',
    );
    expect(attackerJwks.requests()).toBe(0);
  });

  it('never trusts a key embedded in the jwk header', async () => {
    await expectRejected(
      verify,
      await signAsAttacker({ kid: attacker.publicJwk.kid, jwk: attacker.publicJwk }),
      'unknown-key',
    );
    await expectRejected(
      verify,
      await signAsAttacker({ kid: providerJwk.kid, jwk: attacker.publicJwk }),
      'bad-signature',
    );
    // Without a kid the provider's only key is tried, and the signature does not match it.
    await expectRejected(
      verify,
      await signAsAttacker({ jwk: attacker.publicJwk }),
      'bad-signature',
    );
  });

  it("refuses key-bearing headers even on a token signed with the provider's key", async () => {
    const jku = `${attackerJwks.url}.well-known/jwks.json`;
    const { n, e, kty } = providerJwk;
    for (const header of [{ jku }, { jwk: { kty, n, e } }, { x5u: jku }]) {
      await expectRejected(
        verify,
        await idp.issueAccessToken({ subject: 'u', header }),
        'header-not-allowed',
      );
    }
    expect(attackerJwks.requests()).toBe(0);
  });

  it('rejects garbage as malformed', async () => {
    await expectRejected(verify, 'not-a-jwt', 'malformed');
    await expectRejected(verify, 'a.b.c', 'malformed');
  });

  it('reports keys-unavailable, not a bad token, when the issuer cannot be reached', async () => {
    const offline = createTokenVerifier({
      issuer: 'http://localhost:1/',
      audience: idp.audience,
      allowedClientIds: idp.allowedClientIds,
    });
    await expectRejected(offline, await idp.issueAccessToken({ subject: 'u' }), 'keys-unavailable');
  });

  it('refuses to be configured without an allowed client', () => {
    expect(() =>
      createTokenVerifier({ issuer: idp.issuer, audience: idp.audience, allowedClientIds: [''] }),
    ).toThrow(/allowed client/);
  });
});

describe('verifying tokens of an Auth0-shaped issuer without a discovery document', () => {
  const SPA_CLIENT = 'AuthZeroSpaClientId';
  const DESKTOP_CLIENT = 'AuthZeroNativeClientId';
  let server: Server;
  let issuer: string;
  let sign: (claims: { sub: string; iss?: string; azp?: string }) => Promise<string>;

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'auth0-like', alg: 'RS256', use: 'sig' };
    // Only /.well-known/jwks.json, as a minimal tenant stand-in: discovery answers 404.
    server = createServer((request, response) => {
      if (request.url === '/.well-known/jwks.json') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ keys: [jwk] }));
        return;
      }
      response.statusCode = 404;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://localhost:${(server.address() as AddressInfo).port}/`;
    // Shaped like Auth0's access tokens: the client in azp, two audiences with openid.
    sign = (claims) =>
      new SignJWT({ azp: claims.azp ?? SPA_CLIENT, scope: 'openid profile email' })
        .setProtectedHeader({ alg: 'RS256', kid: 'auth0-like', typ: 'JWT' })
        .setIssuer(claims.iss ?? issuer)
        .setAudience(['https://api.shelfwatch.app', `${issuer}userinfo`])
        .setSubject(claims.sub)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('finds the keys at {issuer}.well-known/jwks.json and accepts a multi-audience token', async () => {
    const verify = createTokenVerifier({
      issuer,
      audience: 'https://api.shelfwatch.app',
      allowedClientIds: [SPA_CLIENT],
    });
    await expect(verify(await sign({ sub: 'auth0|abc123' }))).resolves.toEqual({
      issuer,
      subject: 'auth0|abc123',
      expiresAt: expect.any(Number) as number,
    });
  });

  it("accepts the configured clients' tokens (azp) and refuses another application's", async () => {
    const verify = createTokenVerifier({
      issuer,
      audience: 'https://api.shelfwatch.app',
      allowedClientIds: [SPA_CLIENT, DESKTOP_CLIENT],
    });
    await expect(verify(await sign({ sub: 'auth0|a', azp: DESKTOP_CLIENT }))).resolves.toEqual({
      issuer,
      subject: 'auth0|a',
      expiresAt: expect.any(Number) as number,
    });
    // Another application of the same tenant, allowed to call the API, is still not ours.
    await expectRejected(
      verify,
      await sign({ sub: 'auth0|a', azp: 'OtherTenantApp' }),
      'wrong-client',
    );
  });

  it('uses an explicit jwksUri when given', async () => {
    const verify = createTokenVerifier({
      issuer: 'https://tenant.auth0.com/',
      audience: 'https://api.shelfwatch.app',
      allowedClientIds: [SPA_CLIENT],
      jwksUri: `${issuer}.well-known/jwks.json`,
    });
    const token = await sign({ sub: 'auth0|xyz', iss: 'https://tenant.auth0.com/' });
    await expect(verify(token)).resolves.toEqual({
      issuer: 'https://tenant.auth0.com/',
      subject: 'auth0|xyz',
      expiresAt: expect.any(Number) as number,
    });
  });
});

describe('reading the bearer token from an Authorization header', () => {
  it('returns the token of a Bearer header and nothing for anything else', () => {
    expect(extractBearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(extractBearerToken('bearer abc.def-_ghi')).toBe('abc.def-_ghi');
    expect(extractBearerToken(undefined)).toBeUndefined();
    expect(extractBearerToken('')).toBeUndefined();
    expect(extractBearerToken('Basic dXNlcjpwYXNz')).toBeUndefined();
    expect(extractBearerToken('Bearer ')).toBeUndefined();
    expect(extractBearerToken('Bearer a b')).toBeUndefined();
  });
});
