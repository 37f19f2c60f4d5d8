import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint } from 'jose';
import { z } from 'zod';
import type { Executor } from '#server/db/database.ts';
import { findSecret, loadOrCreateSecret } from '#server/db/repositories/secrets-repository.ts';

/** Name of the `app_secrets` row holding the provider's private signing keys (newest first). */
export const SIGNING_KEYS_SECRET = 'idp.signing-keys';
/** Name of the `app_secrets` row holding the keys that sign the provider's cookies. */
export const COOKIE_KEYS_SECRET = 'idp.cookie-keys';

/** A private RSA key in JWK form, as oidc-provider's `jwks` option takes it. */
export type PrivateRsaJwk = {
  kty: 'RSA';
  kid: string;
  alg: 'RS256';
  use: 'sig';
  n: string;
  e: string;
  d: string;
  p: string;
  q: string;
  dp: string;
  dq: string;
  qi: string;
};

const privateRsaJwkSchema = z.object({
  kty: z.literal('RSA'),
  kid: z.string().min(1),
  alg: z.literal('RS256'),
  use: z.literal('sig'),
  n: z.string(),
  e: z.string(),
  d: z.string(),
  p: z.string(),
  q: z.string(),
  dp: z.string(),
  dq: z.string(),
  qi: z.string(),
});
const signingKeysSchema = z.object({ keys: z.array(privateRsaJwkSchema).min(1) });
const cookieKeysSchema = z.array(z.string().min(32)).min(1);

/**
 * The provider's signing keys, generated on first start and kept in the database: tokens
 * and sessions must survive restarts, and every API instance must see the same `kid`.
 */
export async function loadOrCreateSigningKeys(db: Executor): Promise<PrivateRsaJwk[]> {
  const stored = await loadOrCreateSecret(db, SIGNING_KEYS_SECRET, async () => ({
    keys: [await generateSigningKey()],
  }));
  return signingKeysSchema.parse(stored).keys;
}

/** The cookie signing keys (newest first), generated on first start. */
export async function loadOrCreateCookieKeys(db: Executor): Promise<string[]> {
  const stored = await loadOrCreateSecret(db, COOKIE_KEYS_SECRET, () =>
    Promise.resolve([randomBytes(32).toString('base64url')]),
  );
  return cookieKeysSchema.parse(stored);
}

/** The current signing key if one was generated yet (tests sign tokens with it). */
export async function findSigningKey(db: Executor): Promise<PrivateRsaJwk | undefined> {
  const stored = await findSecret(db, SIGNING_KEYS_SECRET);
  return stored === undefined ? undefined : signingKeysSchema.parse(stored).keys[0];
}

async function generateSigningKey(): Promise<PrivateRsaJwk> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  const kid = await calculateJwkThumbprint({ kty: 'RSA', n: jwk.n, e: jwk.e });
  return privateRsaJwkSchema.parse({ ...jwk, kid, alg: 'RS256', use: 'sig' });
}
