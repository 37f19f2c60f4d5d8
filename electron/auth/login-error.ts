/** Why a login did not complete. */
export type LoginFailureReason =
  | 'cancelled'
  | 'timeout'
  | 'state_mismatch'
  | 'provider_error'
  | 'exchange_failed'
  | 'unreachable'
  | 'expired';

/** A login that did not complete, with words the user can act on. */
export class LoginError extends Error {
  /** Keeps the reason for the window and the logs. */
  constructor(
    readonly reason: LoginFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'LoginError';
  }
}
