import type { IpcError, IpcResult } from '#shared/desktop/ipc-contract.ts';

// Codes whose HTTP twin the screens already handle (404 shows "Search not found", 400 a
// bad id), so a local search behaves like an account one.
const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  not_found: 404,
  invalid_input: 400,
};

/** A request to the app's main process that answered an error. */
export class HostRequestError extends Error {
  readonly code: string;
  /** The sentence for the person, as an API error's `reason`. */
  readonly reason: string;
  readonly field: string | undefined;
  /** The HTTP status the same failure would have had from the API, when there is one. */
  readonly status: number | undefined;

  /** Keeps the main process's code, reason, message and field. */
  constructor(error: IpcError) {
    super(error.message);
    this.name = 'HostRequestError';
    this.code = error.code;
    this.reason = error.reason;
    this.field = error.field;
    this.status = STATUS_BY_CODE[error.code];
  }
}

/** The value of a bridge answer, or its error thrown as a HostRequestError. */
export async function unwrapHostResult<T>(answer: Promise<IpcResult<T>>): Promise<T> {
  const result = await answer;
  if (result.ok) return result.value;
  throw new HostRequestError(result.error);
}
