/** API token verification: one entry point for the rest of the server. */
export {
  CLOCK_TOLERANCE_SECONDS,
  createTokenVerifier,
  extractBearerToken,
  TokenRejectedError,
  type TokenRejectionReason,
  type TokenVerifier,
  type VerifiedToken,
} from './token-verifier.ts';
