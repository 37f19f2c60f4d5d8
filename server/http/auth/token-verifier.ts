import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';

/** Who an accepted access token speaks for. */
export type VerifiedToken = {
  issuer: string;
  subject: string;
  email?: string;
  /** The token's `exp` in epoch milliseconds: what it proves may be cached until then. */
  expiresAt: number;
};

/** Checks an access token; resolves its identity or rejects with TokenRejectedError. */
export type TokenVerifier = (token: string) => Promise<VerifiedToken>;

/** Why a token was refused. `keys-unavailable` is the verifier's problem, not the caller's. */
export type TokenRejectionReason =
  | 'malformed'
  | 'expired'
  | 'not-yet-valid'
  | 'wrong-issuer'
  | 'wrong-audience'
  | 'wrong-client'
  | 'missing-claim'
  | 'algorithm-not-allowed'
  | 'unknown-key'
  | 'bad-signature'
  | 'header-not-allowed'
  | 'keys-unavailable';

/** A token the API must not accept; `reason` is safe to log, never to echo verbatim. */
export class TokenRejectedError extends Error {
  readonly reason: TokenRejectionReason;

  constructor(reason: TokenRejectionReason, options?: { cause?: unknown }) {
    super(`Access token rejected: ${reason}`, options);
    this.name = 'TokenRejectedError';
    this.reason = reason;
  }
}

/** Seconds of clock difference tolerated between the issuer and this server. */
export const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Headers that would name or carry a verification key. Neither Auth0 nor the embedded provider
 * sets them, and keys only ever come from the issuer's JWKS, so a token bearing one is refused.
 */
const KEY_BEARING_HEADERS = ['jku', 'jwk', 'x5u', 'x5c'] as const;

const discoverySchema = z.object({ issuer: z.string(), jwks_uri: z.url() });
const DISCOVERY_TIMEOUT_MS = 5000;

/**
 * A verifier for RS256 JWT access tokens of one issuer and audience, issued to one of
 * `allowedClientIds` (the website's and the desktop app's clients). Works the same against
 * an Auth0 tenant (issuer https://TENANT.auth0.com/, client in `azp`) and the embedded
 * provider (client in `client_id`). Keys come from the JWKS named by the issuer's discovery
 * document (or `${issuer}.well-known/jwks.json`) and are cached; an unknown `kid` triggers
 * one refetch, rate-limited by jose.
 */
export function createTokenVerifier(options: {
  issuer: string;
  audience: string;
  /** Client ids whose tokens the API accepts; a token of any other client is refused. */
  allowedClientIds: readonly string[];
  jwksUri?: string;
}): TokenVerifier {
  const { issuer, audience } = options;
  const allowedClientIds = new Set(options.allowedClientIds.filter((id) => id !== ''));
  if (allowedClientIds.size === 0) {
    // Without a client to allow every token would be refused: a configuration mistake.
    throw new Error('createTokenVerifier needs at least one allowed client id');
  }
  let keys: JWTVerifyGetKey | undefined =
    options.jwksUri === undefined ? undefined : createRemoteJWKSet(new URL(options.jwksUri));
  const resolveKeys = async (): Promise<JWTVerifyGetKey> => {
    keys ??= createRemoteJWKSet(new URL(await discoverJwksUri(issuer)));
    return keys;
  };

  return async (token) => {
    try {
      const { payload, protectedHeader } = await jwtVerify(token, await resolveKeys(), {
        issuer,
        audience,
        // An allowlist, so neither `none` nor an HMAC keyed with the public key can pass.
        algorithms: ['RS256'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp'],
      });
      if (KEY_BEARING_HEADERS.some((name) => Object.hasOwn(protectedHeader, name))) {
        throw new TokenRejectedError('header-not-allowed');
      }
      if (typeof payload.sub !== 'string' || payload.sub === '') {
        throw new TokenRejectedError('missing-claim');
      }
      checkClient(payload, allowedClientIds);
      const email =
        typeof payload.email === 'string' && payload.email !== '' ? payload.email : undefined;
      // `exp` is a required claim, so jwtVerify has already refused a token without one.
      const expiresAt = (payload.exp ?? 0) * 1000;
      return email === undefined
        ? { issuer, subject: payload.sub, expiresAt }
        : { issuer, subject: payload.sub, email, expiresAt };
    } catch (error) {
      throw error instanceof TokenRejectedError
        ? error
        : new TokenRejectedError(classifyFailure(error), { cause: error });
    }
  };
}

/**
 * The client a token was issued to must be allowed: Auth0 names it in `azp`, oidc-provider in
 * `client_id`; a token naming two different clients is refused rather than guessed at.
 */
function checkClient(payload: JWTPayload, allowedClientIds: ReadonlySet<string>): void {
  const named = [payload.azp, payload.client_id].filter((value) => value !== undefined);
  if (named.length === 0) {
    throw new TokenRejectedError('missing-claim');
  }
  const [client] = named;
  const isConsistent = named.every((value) => value === client);
  if (!isConsistent || typeof client !== 'string' || !allowedClientIds.has(client)) {
    throw new TokenRejectedError('wrong-client');
  }
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function extractBearerToken(headerValue: string | undefined): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(headerValue ?? '');
  return match?.[1];
}

/**
 * The JWKS location from OpenID discovery. Falls back to the conventional path (which both
 * Auth0 and the embedded provider serve) when discovery is unreachable, so a provider that
 * starts after the API does not leave it without keys.
 */
async function discoverJwksUri(issuer: string): Promise<string> {
  const fallback = new URL('.well-known/jwks.json', issuer).toString();
  try {
    const response = await fetch(new URL('.well-known/openid-configuration', issuer), {
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) {
      return fallback;
    }
    const document = discoverySchema.safeParse(await response.json());
    // A document naming another issuer is not this issuer's: ignore what it says.
    return document.success && document.data.issuer === issuer ? document.data.jwks_uri : fallback;
  } catch {
    return fallback;
  }
}

function classifyFailure(error: unknown): TokenRejectionReason {
  if (error instanceof errors.JWTExpired) {
    return 'expired';
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    return classifyClaimFailure(error.claim, error.reason);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return 'algorithm-not-allowed';
  }
  if (
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return 'unknown-key';
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return 'bad-signature';
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return 'keys-unavailable';
  }
  if (error instanceof errors.JOSEError) {
    // JWSInvalid, JWTInvalid, JOSENotSupported (e.g. alg "none"), JWKInvalid...
    return error.code === 'ERR_JOSE_GENERIC' ? 'keys-unavailable' : 'malformed';
  }
  // fetch failures while loading keys surface as TypeError and friends.
  return 'keys-unavailable';
}

function classifyClaimFailure(claim: string, reason: string): TokenRejectionReason {
  if (reason === 'missing') {
    return 'missing-claim';
  }
  switch (claim) {
    case 'iss':
      return 'wrong-issuer';
    case 'aud':
      return 'wrong-audience';
    case 'nbf':
    case 'iat':
      return 'not-yet-valid';
    default:
      return 'malformed';
  }
}
