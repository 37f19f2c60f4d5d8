import { generateKeyPair, randomUUID, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { importJWK, SignJWT, type JWTHeaderParameters } from 'jose';
import { EMBEDDED_CLIENT_ID } from '#server/config/login-settings.ts';
import type { Db } from '#server/db/database.ts';
import { DESKTOP_CLIENT_ID } from '#server/identity/configuration.ts';
import { startIdentityProvider, type RunningIdentityProvider } from '#server/identity/index.ts';
import { findSigningKey } from '#server/identity/secrets.ts';
import { getFreePort } from './free-port.ts';

/** The API audience tests use (the server's default API_AUDIENCE). */
export const TEST_API_AUDIENCE = 'https://api.shelfwatch.app';

/** The clients whose tokens the API accepts with the embedded provider: website and macOS app. */
export const TEST_ALLOWED_CLIENT_IDS: readonly string[] = [EMBEDDED_CLIENT_ID, DESKTOP_CLIENT_ID];

/** Claims of a token a test asks for; issuer, audience and client default to the real ones. */
export type TestTokenClaims = {
  /** null leaves `sub` out. */
  subject: string | null;
  email?: string;
  expiresInSeconds?: number;
  /** Seconds from now before which the token is not valid (`nbf`); absent by default. */
  notBeforeInSeconds?: number;
  issuer?: string;
  audience?: string;
  /** The client the token names (default the website's); null leaves the claim out. */
  clientId?: string | null;
  /** Where the client is named: `client_id` as oidc-provider does (default), `azp` as Auth0 does. */
  clientClaim?: 'client_id' | 'azp';
  /** Further payload claims, set after (and so overriding) the ones above. */
  extraClaims?: Record<string, unknown>;
  /** Extra protected header parameters, e.g. `jku` or `jwk` for attack tests. */
  header?: Partial<JWTHeaderParameters>;
};

/** The real embedded provider on a free port, plus ways to mint tokens without a browser. */
export type TestIdentityProvider = RunningIdentityProvider & {
  clientId: string;
  audience: string;
  /** What the API's verifier is configured with for this provider. */
  allowedClientIds: readonly string[];
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
    allowedClientIds: TEST_ALLOWED_CLIENT_IDS,
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
  const clientId = claims.clientId === undefined ? EMBEDDED_CLIENT_ID : claims.clientId;
  // Shaped like oidc-provider's JWT access tokens so contract tests see realistic claims.
  const jwt = new SignJWT({
    ...(claims.email === undefined ? {} : { email: claims.email }),
    scope: 'openid profile email offline_access',
    ...(clientId === null ? {} : { [claims.clientClaim ?? 'client_id']: clientId }),
    ...claims.extraClaims,
  })
    .setProtectedHeader({ ...claims.header, alg: 'RS256', kid, typ: 'at+jwt' })
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + (claims.expiresInSeconds ?? 3600));
  if (claims.subject !== null) {
    jwt.setSubject(claims.subject);
  }
  if (claims.notBeforeInSeconds !== undefined) {
    jwt.setNotBefore(now + claims.notBeforeInSeconds);
  }
  return await jwt.sign(key);
}

async function generateRsaKey(): Promise<KeyObject> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  return privateKey;
}
