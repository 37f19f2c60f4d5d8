import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTokenVerifier,
  extractBearerToken,
  TokenRejectedError,
  type TokenRejectionReason,
  type TokenVerifier,
} from '#server/plugins/auth/index.ts';
import { createTestDatabase, type TestDatabase } from '#tests/helpers/test-database.ts';
import { startTestIdentityProvider, type TestIdentityProvider } from '#tests/helpers/tokens.ts';

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

describe('verifying API access tokens', () => {
  let testDb: TestDatabase;
  let idp: TestIdentityProvider;
  let verify: TokenVerifier;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    idp = await startTestIdentityProvider(testDb.db);
    verify = createTokenVerifier({ issuer: idp.issuer, audience: idp.audience });
  });
  afterAll(async () => {
    await idp?.close();
    await testDb?.drop();
  });

  it("accepts a token signed with the provider's key and returns its subject and email", async () => {
    const token = await idp.issueAccessToken({ subject: 'user-42', email: 'someone@example.com' });
    await expect(verify(token)).resolves.toEqual({
      issuer: idp.issuer,
      subject: 'user-42',
      email: 'someone@example.com',
    });
    const withoutEmail = await idp.issueAccessToken({ subject: 'user-43' });
    await expect(verify(withoutEmail)).resolves.toEqual({ issuer: idp.issuer, subject: 'user-43' });
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

  it('rejects HS256 and unsigned ("none") tokens', async () => {
    const hmac = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setSubject('u')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a shared secret that is long enough!!'));
    await expectRejected(verify, hmac, 'algorithm-not-allowed');

    const encode = (value: object): string =>
      Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ iss: idp.issuer, aud: idp.audience, sub: 'u', exp: now + 300 })}.`;
    await expectRejected(verify, unsigned, 'algorithm-not-allowed');
  });

  it('rejects tokens signed by a key the provider does not publish', async () => {
    const foreignKid = await idp.issueForeignToken({ subject: 'u', issuer: idp.issuer });
    await expectRejected(verify, foreignKid, 'unknown-key');
    const { kid } = JSON.parse(Buffer.from(foreignKid.split('.')[0], 'base64url').toString()) as {
      kid: string;
    };
    expect(kid).toBe('foreign-key');
    const jwks = (await (await fetch(new URL('.well-known/jwks.json', idp.issuer))).json()) as {
      keys: { kid: string }[];
    };
    const stolenKid = await idp.issueForeignToken({
      subject: 'u',
      issuer: idp.issuer,
      kid: jwks.keys[0].kid,
    });
    await expectRejected(verify, stolenKid, 'bad-signature');
    await expectRejected(verify, await idp.issueForeignToken({ subject: 'u' }), 'unknown-key');
  });

  it('rejects garbage as malformed', async () => {
    await expectRejected(verify, 'not-a-jwt', 'malformed');
    await expectRejected(verify, 'a.b.c', 'malformed');
  });

  it('reports keys-unavailable, not a bad token, when the issuer cannot be reached', async () => {
    const offline = createTokenVerifier({ issuer: 'http://localhost:1/', audience: idp.audience });
    await expectRejected(offline, await idp.issueAccessToken({ subject: 'u' }), 'keys-unavailable');
  });
});

describe('verifying tokens of an Auth0-shaped issuer without a discovery document', () => {
  let server: Server;
  let issuer: string;
  let sign: (claims: { sub: string; iss?: string }) => Promise<string>;

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
    sign = (claims) =>
      new SignJWT({})
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
    const verify = createTokenVerifier({ issuer, audience: 'https://api.shelfwatch.app' });
    await expect(verify(await sign({ sub: 'auth0|abc123' }))).resolves.toEqual({
      issuer,
      subject: 'auth0|abc123',
    });
  });

  it('uses an explicit jwksUri when given', async () => {
    const verify = createTokenVerifier({
      issuer: 'https://tenant.auth0.com/',
      audience: 'https://api.shelfwatch.app',
      jwksUri: `${issuer}.well-known/jwks.json`,
    });
    const token = await sign({ sub: 'auth0|xyz', iss: 'https://tenant.auth0.com/' });
    await expect(verify(token)).resolves.toEqual({
      issuer: 'https://tenant.auth0.com/',
      subject: 'auth0|xyz',
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
