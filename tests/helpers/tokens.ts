import { generateKeyPair, randomUUID, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { importJWK, SignJWT } from 'jose';
import { EMBEDDED_CLIENT_ID } from '#server/config.ts';
import type { Db } from '#server/db/database.ts';
import { startIdentityProvider, type RunningIdentityProvider } from '#server/plugins/idp/index.ts';
import { findSigningKey } from '#server/plugins/idp/secrets.ts';
import { getFreePort } from './free-port.ts';

/** The API audience tests use (the server's default API_AUDIENCE). */
export const TEST_API_AUDIENCE = 'https://api.shelfwatch.app';

/** Claims of a token a test asks for; issuer and audience default to the real ones. */
export type TestTokenClaims = {
  subject: string;
  email?: string;
  expiresInSeconds?: number;
  issuer?: string;
  audience?: string;
};

/** The real embedded provider on a free port, plus ways to mint tokens without a browser. */
export type TestIdentityProvider = RunningIdentityProvider & {
  clientId: string;
  audience: string;
  /** An access token signed with the provider's own stored key: the real verifier accepts it. */
  issueAccessToken(claims: TestTokenClaims): Promise<string>;
  /** A token signed by another key (default issuer https://attacker.example/): must be refused. */
  issueForeignToken(claims: TestTokenClaims & { kid?: string }): Promise<string>;
};

/** Starts the embedded provider against `db` (migrated) on a free localhost port. */
export async function startTestIdentityProvider(
  db: Db,
  options: { siteOrigins?: string[] } = {},
): Promise<TestIdentityProvider> {
  const port = await getFreePort();
  const provider = await startIdentityProvider({
    db,
    issuer: `http://localhost:${port}/`,
    port,
    clientId: EMBEDDED_CLIENT_ID,
    apiAudience: TEST_API_AUDIENCE,
    siteOrigins: options.siteOrigins ?? ['http://localhost:3000'],
    logger: { info: () => undefined, warn: (message) => console.warn(message) },
  });
  const storedKey = await findSigningKey(db);
  if (storedKey === undefined) {
    throw new Error('The identity provider started without storing a signing key');
  }
  const signingKey = await importJWK(storedKey, 'RS256');
  // Generated on first use: RSA generation takes most of a second on slow machines.
  let foreignKey: Promise<KeyObject> | undefined;

  return {
    ...provider,
    clientId: EMBEDDED_CLIENT_ID,
    audience: TEST_API_AUDIENCE,
    issueAccessToken: (claims) =>
      signToken(signingKey, storedKey.kid, {
        issuer: provider.issuer,
        audience: TEST_API_AUDIENCE,
        ...claims,
      }),
    issueForeignToken: async (claims) =>
      signToken(await (foreignKey ??= generateRsaKey()), claims.kid ?? 'foreign-key', {
        issuer: 'https://attacker.example/',
        audience: TEST_API_AUDIENCE,
        ...claims,
      }),
  };
}

async function signToken(
  key: Parameters<SignJWT['sign']>[0],
  kid: string,
  claims: TestTokenClaims & { issuer: string; audience: string },
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  // Shaped like oidc-provider's JWT access tokens so contract tests see realistic claims.
  return await new SignJWT({
    ...(claims.email === undefined ? {} : { email: claims.email }),
    scope: 'openid profile email offline_access',
    client_id: EMBEDDED_CLIENT_ID,
  })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setSubject(claims.subject)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + (claims.expiresInSeconds ?? 3600))
    .sign(key);
}

async function generateRsaKey(): Promise<KeyObject> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  return privateKey;
}
