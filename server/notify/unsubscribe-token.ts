import { createHmac, timingSafeEqual } from 'node:crypto';

/** Version prefix, so the token format can change without accepting old forgeries. */
const TOKEN_VERSION = 'u1';
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Signs a search id into an unsubscribe token "u1.<searchId>.<hmac>". The token never
 * expires on purpose: RFC 8058 links must keep working in old mail.
 */
export function signUnsubscribeToken(key: Buffer, searchId: string): string {
  return `${TOKEN_VERSION}.${searchId}.${computeSignature(key, searchId)}`;
}

/** The search id a token was signed for, or undefined when it is malformed or forged. */
export function verifyUnsubscribeToken(key: Buffer, token: string): string | undefined {
  const [version, searchId, signature, ...rest] = token.split('.');
  if (
    version !== TOKEN_VERSION ||
    searchId === undefined ||
    signature === undefined ||
    rest.length > 0
  ) {
    return undefined;
  }
  if (!UUID_PATTERN.test(searchId)) {
    return undefined;
  }
  const expected = Buffer.from(computeSignature(key, searchId));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given)
    ? searchId.toLowerCase()
    : undefined;
}

function computeSignature(key: Buffer, searchId: string): string {
  return createHmac('sha256', key)
    .update(`unsubscribe:${searchId.toLowerCase()}`)
    .digest('base64url');
}
