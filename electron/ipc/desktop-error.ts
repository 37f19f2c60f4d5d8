import type { IpcError } from '#shared/desktop/ipc-contract.ts';

// Handlers throw this for failures the user can act on (a bad address, the free search limit);
// the IPC router turns it into the IpcError the window shows. Anything else thrown is a bug
// and reaches the window only as a generic `internal_error`.

/** An expected failure of a request, answered to the window as an IpcError. */
export class DesktopError extends Error {
  /** Stable reason code the window can branch on, e.g. `free_search_limit`. */
  readonly reason: string;
  /** The input field at fault, when there is one. */
  readonly field?: string;

  constructor(reason: string, message: string, field?: string) {
    super(message);
    this.name = 'DesktopError';
    this.reason = reason;
    if (field !== undefined) this.field = field;
  }

  /** The error as the window receives it (no stack, no cause). */
  toIpcError(): IpcError {
    return this.field === undefined
      ? { reason: this.reason, message: this.message }
      : { reason: this.reason, message: this.message, field: this.field };
  }
}

/** True for a DesktopError, also one thrown by another copy of this module (bundling). */
export function isDesktopError(error: unknown): error is DesktopError {
  return (
    error instanceof DesktopError ||
    (error instanceof Error &&
      error.name === 'DesktopError' &&
      typeof (error as { reason?: unknown }).reason === 'string' &&
      typeof (error as { toIpcError?: unknown }).toIpcError === 'function')
  );
}
